import { Option, type Command } from 'commander';
import { positiveInt } from './errors.ts';
import { loadSpec } from '../engine/spec.ts';
import { SpecError } from '../engine/diagnostics.ts';
import { Site } from '../core/site.ts';
import { Store } from '../store/index.ts';
import { installContent } from '../core/install.ts';
import type { NewPost } from '../store/posts.ts';
import { AUTHORS, ContentGenerator, randomSource } from './seed-data.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';
import { Progress } from './progress.ts';
import { plural } from './output.ts';
import { dbOption, specOption } from './site-store.ts';

interface SeedOptions {
  posts: string;
  terms?: string;
  db: string;
  spec: string;
  url?: string;
  seedRandom?: string;
}

/** Posts written per transaction: big enough for speed, small enough for steady progress and a small WAL. */
const CHUNK = 5000;
const YEARS_BACK = 6;

export function registerSeedCommand(program: Command): void {
  program
    .command('seed')
    .description('fill the database with generated posts, terms and authors for demos and benchmarks')
    .addOption(new Option('--posts <n>', 'how many posts to add').makeOptionMandatory().argParser(positiveInt('--posts')))
    .addOption(new Option('--terms <m>', 'how many categories and tags to add (default: posts/50, 20 to 2000)').argParser(positiveInt('--terms')))
    .addOption(dbOption())
    .addOption(specOption())
    .addOption(new Option('--url <url>', "the site's address when the database is new (default: set by the first serve, from its --url or listen address)").env('CMS_SPEC_URL'))
    .addOption(new Option('--seed-random <s>', 'seed of the generator, to repeat a run').argParser(positiveInt('--seed-random')))
    .action(async (o: SeedOptions) => {
      try {
        await seed(o);
      } catch (e) {
        if (!(e instanceof SpecError)) throw e;
        console.error(e.message);
        process.exitCode = 1;
      }
    });
}

async function seed(o: SeedOptions): Promise<void> {
  const spec = loadSpec(o.spec);
  const store = await Store.open(o.db);
  try {
    const site = new Site(spec, store);
    const added = await site.install(o.url ?? '');
    if (added.includes('siteurl')) {
      const install = await installContent(store, site);
      const at = o.url ? `at ${site.home}` : '(its address is set by the first `cms-spec serve`)';
      console.log(`New site installed ${at}. The ${install.adminLogin} account password, shown only this once: ${install.adminPassword}`);
    }
    const postCount = Number(o.posts);
    const termCount = o.terms ? Number(o.terms) : Math.min(2000, Math.max(20, Math.round(postCount / 50)));
    const gen = new ContentGenerator(randomSource(o.seedRandom ? Number(o.seedRandom) : (Date.now() ^ process.pid) >>> 0));
    const started = Date.now();
    const authors = await ensureAuthors(store);
    const { categories, tags } = await addTerms(store, gen, termCount);
    const progress = new Progress(postCount, 'seeded', 'posts');
    const now = Date.now();
    const span = YEARS_BACK * 365 * 86400_000;
    for (let done = 0; done < postCount; done += CHUNK) {
      const size = Math.min(CHUNK, postCount - done);
      await store.transaction(async (s) => {
        const posts: NewPost[] = [];
        for (let i = 0; i < size; i++) {
          // dates rise with the ids, spread evenly over the years with some jitter, as a real blog's do
          const at = now - span + ((done + i + gen.int(0, 900) / 1000) / postCount) * span;
          const draft = gen.chance(0.02);
          posts.push({
            author: gen.pick(authors),
            title: gen.title(),
            content: gen.content(),
            excerpt: gen.chance(0.7) ? gen.excerpt() : '',
            status: draft ? 'draft' : 'publish',
            type: 'post',
            sticky: !draft && gen.chance(0.0005) ? 1 : 0,
            date_gmt: new Date(Math.min(at, now)).toISOString().slice(0, 19).replace('T', ' '),
          });
        }
        const ids = await s.posts.insertMany(posts);
        const pairs: { postId: number; termId: number }[] = [];
        for (const postId of ids) {
          for (const termId of new Set([skewedPick(gen, categories), ...(gen.chance(0.3) ? [skewedPick(gen, categories)] : [])])) pairs.push({ postId, termId });
          if (tags.length) for (const termId of new Set(Array.from({ length: gen.int(0, 4) }, () => skewedPick(gen, tags)))) pairs.push({ postId, termId });
        }
        await s.terms.attachMany(pairs);
      });
      progress.update(done + size);
    }
    progress.finish();
    // a bulk load changes what the planner should know of the tables' sizes
    await store.analyze();
    console.log(`Seeded ${plural(postCount, 'post')}, ${plural(categories.length, 'category', 'categories')}, ${plural(tags.length, 'tag')} and ${plural(authors.length, 'author')} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await store.close();
  }
}

/** The demo authors (created once, with passwords nobody knows) plus the admin. */
async function ensureAuthors(store: Store): Promise<number[]> {
  const ids: number[] = [];
  const admin = await store.users.byLogin('admin');
  if (admin) ids.push(admin.id);
  for (const a of AUTHORS) {
    const existing = await store.users.byLogin(a.login);
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const id = await store.users.insert({ ...a, email: `${a.login}@example.com`, password_hash: await hashPassword(generatePassword(24)) });
    ids.push(id);
  }
  return ids;
}

/** A tenth of the terms are categories (at least two, a few nested under the first ones), the rest tags: none of two terms or fewer. */
async function addTerms(store: Store, gen: ContentGenerator, count: number): Promise<{ categories: number[]; tags: number[] }> {
  const names = gen.termNames(count);
  const categoryCount = Math.min(count, Math.max(2, Math.round(count / 10)));
  return store.transaction(async (s) => {
    const categories: number[] = [];
    const tags: number[] = [];
    for (const [i, name] of names.entries()) {
      if (i < categoryCount) {
        const parent = i >= 5 && gen.chance(0.3) ? gen.pick(categories.slice(0, 5)) : 0;
        categories.push(await s.terms.insert({ taxonomy: 'category', name, parent, description: gen.sentence(6, 12) }));
      } else {
        tags.push(await s.terms.insert({ taxonomy: 'post_tag', name }));
      }
    }
    return { categories, tags };
  });
}

/** Favors the front of the list, so some terms are big and many are small, as on real sites. */
function skewedPick(gen: ContentGenerator, ids: number[]): number {
  const r = gen.int(0, 999) / 1000;
  return ids[Math.floor(r * r * ids.length)];
}
