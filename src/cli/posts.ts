import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { Store } from '../store/index.ts';
import type { PostQuery, PostRow } from '../store/posts.ts';
import type { Site } from '../core/site.ts';
import { permalink } from '../core/permalinks.ts';
import { CliError } from './errors.ts';
import { fieldsOption, ITEM_FORMATS, LIST_FORMATS, plural, printItem, printRows, type ListFormat } from './output.ts';
import { Progress } from './progress.ts';
import { actingUser, dbOption, LocalApi, siteCommand, specOption, userNamed, variantOption, withSite } from './site-store.ts';

/** wp-cli's field names for a post, in its order. */
const FIELDS = ['ID', 'post_author', 'post_date', 'post_date_gmt', 'post_content', 'post_title', 'post_excerpt', 'post_status', 'comment_status', 'ping_status', 'post_password', 'post_name', 'post_modified', 'post_modified_gmt', 'post_parent', 'guid', 'menu_order', 'post_type', 'url'];
const LIST_FIELDS = ['ID', 'post_title', 'post_name', 'post_date', 'post_status'];
/** `post_status=any`: every status but trash and auto-draft. */
const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
/** Past this many ids, `post delete` shows a progress bar and one summary line instead of a line per post. */
const PROGRESS_ABOVE = 10;

async function postFields(store: Store, site: Site, p: PostRow): Promise<Record<string, unknown>> {
  const parentPath = p.parent ? (await store.posts.ancestorSlugs(p)).join('/') : '';
  return {
    ID: p.id, post_author: p.author, post_date: p.date, post_date_gmt: p.date_gmt, post_content: p.content, post_title: p.title, post_excerpt: p.excerpt,
    post_status: p.status, comment_status: p.comment_status, ping_status: p.ping_status, post_password: p.password, post_name: p.slug,
    post_modified: p.modified, post_modified_gmt: p.modified_gmt, post_parent: p.parent, guid: p.guid, menu_order: p.menu_order, post_type: p.type,
    url: permalink(site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date, parentPath }),
  };
}

function postId(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new CliError(`"${value}" is not a post ID (a whole number from 1).`);
  return Number(value);
}

function knownType(site: Site, slug: string) {
  const type = site.types.postType(slug);
  if (!type || !type.restBase) throw new CliError(`Unknown post type "${slug}". The types are ${site.types.postTypes.map((t) => t.slug).join(', ')}.`);
  return type;
}

const commaList = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

interface WriteOptions {
  post_title?: string;
  post_content?: string;
  post_excerpt?: string;
  post_status?: string;
  post_name?: string;
  post_author?: string;
  post_date?: string;
  post_parent?: string;
  menu_order?: string;
  post_category?: string;
  tags_input?: string;
  post_password?: string;
  comment_status?: string;
  ping_status?: string;
  user?: string;
  db: string;
  spec: string;
}

/** The post fields a create or update sets, named as wp-cli names them. */
function addWriteOptions(cmd: Command): Command {
  return cmd
    .option('--post_title <title>', 'the title')
    .option('--post_content <html>', 'the content (or give a file, `-` for standard input)')
    .option('--post_excerpt <text>', 'the excerpt')
    .option('--post_status <status>', 'publish, future, draft, pending or private')
    .option('--post_name <slug>', 'the slug')
    .option('--post_author <user>', 'the author: login, email or ID')
    .option('--post_date <date>', "the date, site time: 'YYYY-MM-DD HH:MM:SS'")
    .option('--post_parent <id>', 'the parent page')
    .option('--menu_order <n>', "the page's place in menus")
    .option('--post_category <list>', 'categories: IDs, slugs or names, comma-separated')
    .option('--tags_input <list>', 'tags by name, comma-separated (missing ones are created)')
    .option('--post_password <password>', 'a password to read it')
    .option('--comment_status <status>', 'open or closed')
    .option('--ping_status <status>', 'open or closed')
    .option('--user <user>', 'act as this user (default: the first administrator)')
    .addOption(dbOption())
    .addOption(specOption())
    .addOption(variantOption());
}

const DATE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/;

/** The REST request body for the given options; category and tag names resolved, missing tags created. */
async function bodyOf(store: Store, api: LocalApi, as: Parameters<LocalApi['request']>[2], o: WriteOptions, content?: string): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (o.post_title !== undefined) body.title = o.post_title;
  if (content !== undefined) body.content = content;
  else if (o.post_content !== undefined) body.content = o.post_content;
  if (o.post_excerpt !== undefined) body.excerpt = o.post_excerpt;
  if (o.post_status !== undefined) body.status = o.post_status;
  if (o.post_name !== undefined) body.slug = o.post_name;
  if (o.post_password !== undefined) body.password = o.post_password;
  if (o.comment_status !== undefined) body.comment_status = o.comment_status;
  if (o.ping_status !== undefined) body.ping_status = o.ping_status;
  if (o.post_author !== undefined) body.author = (await userNamed(store, o.post_author)).id;
  if (o.post_date !== undefined) {
    if (!DATE.test(o.post_date)) throw new CliError(`--post_date takes 'YYYY-MM-DD HH:MM:SS' (site time), not "${o.post_date}".`);
    body.date = o.post_date.replace(' ', 'T');
  }
  if (o.post_parent !== undefined) body.parent = postId(o.post_parent);
  if (o.menu_order !== undefined) {
    if (!/^-?\d+$/.test(o.menu_order)) throw new CliError(`--menu_order takes a whole number, not "${o.menu_order}".`);
    body.menu_order = Number(o.menu_order);
  }
  if (o.post_category !== undefined) {
    body.categories = [];
    for (const name of commaList(o.post_category)) {
      const term = /^\d+$/.test(name) ? await store.terms.get(Number(name)) : ((await store.terms.bySlug('category', name)) ?? (await store.terms.byName('category', name)));
      if (!term || term.taxonomy !== 'category') throw new CliError(`There is no category "${name}".`);
      (body.categories as number[]).push(term.id);
    }
  }
  if (o.tags_input !== undefined) {
    body.tags = [];
    for (const name of commaList(o.tags_input)) {
      const term = (await store.terms.byName('post_tag', name)) ?? (await store.terms.bySlug('post_tag', name));
      const id = term?.id ?? ((await api.request('POST', '/cms/v2/tags', as, { name })).id as number);
      (body.tags as number[]).push(id);
    }
  }
  return body;
}

/** wp-cli reads the content from a file argument, `-` being standard input. */
function contentFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new CliError(`Cannot read the content file "${file}": ${(e as Error).message}.`);
  }
}

export function registerPostCommands(program: Command): void {
  const post = program.command('post').description("manage the site's posts and pages");

  siteCommand(post, 'list', 'list posts (all statuses but trash, every page of them, newest first)')
    .option('--post_type <types>', 'post types, comma-separated', 'post')
    .option('--post_status <statuses>', "statuses, comma-separated, or 'any'", 'any')
    .option('--s <text>', 'search, as the site searches')
    .option('--author <user>', 'only posts by this user (login, email or ID)')
    .addOption(new Option('--orderby <field>', 'sort by').choices(['date', 'id', 'title', 'modified', 'menu_order']).default('date'))
    .addOption(new Option('--order <order>', 'sort order').choices(['asc', 'desc']).default('desc'))
    .option('--posts_per_page <n>', 'at most this many (default: all)')
    .option('--paged <n>', 'which page of posts_per_page', '1')
    .option('--fields <fields>', `fields to show (${FIELDS.join(', ')})`)
    .option('--field <field>', 'show only this field, a value a line')
    .addOption(new Option('--format <format>', 'output format').choices([...LIST_FORMATS]).default('table'))
    .action(
      withSite(async ({ store, site }, o: { spec: string; post_type: string; post_status: string; s?: string; author?: string; orderby: PostQuery['orderby']; order: 'asc' | 'desc'; posts_per_page?: string; paged: string; fields?: string; field?: string; format: ListFormat; db: string }) => {
        const types = commaList(o.post_type);
        for (const t of types) knownType(site, t);
        const perPage = o.posts_per_page === undefined ? Number.MAX_SAFE_INTEGER : Number(o.posts_per_page);
        if (!Number.isSafeInteger(perPage) || perPage < 1) throw new CliError(`--posts_per_page takes a whole number from 1, not "${o.posts_per_page}".`);
        if (!/^\d+$/.test(o.paged) || Number(o.paged) < 1) throw new CliError(`--paged takes a whole number from 1, not "${o.paged}".`);
        const { rows } = await store.posts.query({
          types,
          statuses: o.post_status === 'any' ? ANY_STATUSES : commaList(o.post_status),
          search: o.s,
          authors: o.author ? [(await userNamed(store, o.author)).id] : undefined,
          orderby: o.orderby,
          order: o.order,
          offset: perPage === Number.MAX_SAFE_INTEGER ? 0 : (Number(o.paged) - 1) * perPage,
          limit: perPage,
        });
        const items = await Promise.all(rows.map((p) => postFields(store, site, p)));
        if (o.field) return printValues(items, fieldsOption(o.field, [], FIELDS)[0]);
        printRows(items, fieldsOption(o.fields, LIST_FIELDS, FIELDS), o.format);
      }),
    );

  siteCommand(post, 'get <id>', 'show one post')
    .option('--fields <fields>', 'fields to show (default: all)')
    .option('--field <field>', 'show only the value of this field')
    .addOption(new Option('--format <format>', 'output format').choices([...ITEM_FORMATS]).default('table'))
    .action(
      withSite(async ({ store, site }, id: string, o: { fields?: string; field?: string; format: 'table' | 'json' | 'csv' }) => {
        const row = await store.posts.get(postId(id));
        if (!row) throw new CliError(`Could not find the post with ID ${id}.`);
        const item = await postFields(store, site, row);
        if (o.field) return printValues([item], fieldsOption(o.field, [], FIELDS)[0]);
        printItem(item, fieldsOption(o.fields, FIELDS, FIELDS), o.format);
      }),
    );

  addWriteOptions(post.command('create [file]').description('create a post through the API as --user (a draft unless --post_status says otherwise)'))
    .option('--post_type <type>', 'its type', 'post')
    .option('--porcelain', 'print only the new post ID')
    .action(
      withSite(async (started, file: string | undefined, o: WriteOptions & { post_type: string; porcelain?: boolean }) => {
        const { store, site } = started;
        const type = knownType(site, o.post_type);
        const api = new LocalApi(started);
        const as = await actingUser(store, o.user);
        const created = await api.request('POST', `/cms/v2/${type.restBase}`, as, await bodyOf(store, api, as, o, contentFile(file)));
        console.log(o.porcelain ? String(created.id) : `Success: Created post ${created.id}.`);
      }),
    );

  addWriteOptions(post.command('update <ids...>').description('change posts through the API as --user'))
    .option('--file <file>', 'read the content from this file (`-` for standard input)')
    .action(
      withSite(async (started, ids: string[], o: WriteOptions & { file?: string }) => {
        const { store, site } = started;
        const api = new LocalApi(started);
        const as = await actingUser(store, o.user);
        const body = await bodyOf(store, api, as, o, contentFile(o.file));
        if (!Object.keys(body).length) throw new CliError('Nothing to update: give at least one field, such as --post_title.');
        await eachPost(store, ids, async (row) => {
          await api.request('POST', `/cms/v2/${knownType(site, row.type).restBase}/${row.id}`, as, body);
          return `Updated post ${row.id}.`;
        });
      }),
    );

  siteCommand(post, 'delete <ids...>', 'move posts to the trash through the API as --user, or delete them for good with --force')
    .option('--force', 'skip the trash')
    .option('--user <user>', 'act as this user (default: the first administrator)')
    .action(
      withSite(async (started, ids: string[], o: { force?: boolean; user?: string }) => {
        const { store, site } = started;
        const api = new LocalApi(started);
        const as = await actingUser(store, o.user);
        await eachPost(store, ids, async (row) => {
          try {
            await api.request('DELETE', `/cms/v2/${knownType(site, row.type).restBase}/${row.id}`, as, o.force ? { force: true } : {});
          } catch (e) {
            if (row.status === 'trash' && !o.force) throw new CliError(`Post ${row.id} is already in the trash; delete it for good with --force.`);
            throw e;
          }
          return `${o.force ? 'Deleted' : 'Trashed'} post ${row.id}.`;
        }, o.force ? 'deleted' : 'trashed');
      }),
    );
}

function printValues(items: Record<string, unknown>[], field: string): void {
  for (const item of items) console.log(String(item[field] ?? ''));
}

/**
 * Runs `work` on each post, as wp-cli does: one that fails is reported and the rest go on; the
 * command fails at the end if any did. Many posts get a progress bar and one summary instead of a line each.
 */
async function eachPost(store: Store, ids: string[], work: (row: PostRow) => Promise<string>, verb = 'updated'): Promise<void> {
  const numbers = ids.map(postId);
  const progress = numbers.length > PROGRESS_ABOVE ? new Progress(numbers.length, verb, 'posts') : null;
  const failures: string[] = [];
  for (const [i, id] of numbers.entries()) {
    try {
      const row = await store.posts.get(id);
      if (!row) throw new CliError(`Could not find the post with ID ${id}.`);
      const done = await work(row);
      if (!progress) console.log(`Success: ${done}`);
    } catch (e) {
      if (!(e instanceof CliError) || numbers.length === 1) throw e;
      failures.push(e.message);
      console.error(`Warning: ${e.message}`);
    }
    progress?.update(i + 1);
  }
  progress?.finish();
  if (progress) console.log(`Success: ${verb[0].toUpperCase()}${verb.slice(1)} ${numbers.length - failures.length} of ${plural(numbers.length, 'post')}.`);
  if (failures.length) throw new CliError(`${failures.length} of ${plural(numbers.length, 'post')} failed.`);
}
