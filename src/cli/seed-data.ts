/**
 * Generated demo content for `cms-spec seed`: readable titles, articles with headings and links,
 * excerpts, terms and authors, drawn from a seeded generator so a seed value repeats a run. The
 * articles carry no images: pictures from other hosts would make every demo page call out to
 * them, and the media library that will hold locally made ones does not exist yet.
 */

const WORDS = (
  'garden river morning city light coffee bicycle mountain window market kitchen journey library ocean story winter summer ' +
  'harbor village forest bridge letter music evening station festival recipe season painting camera road museum ' +
  'island bakery neighbor lantern meadow orchard pocket school studio theater train valley weather workshop notebook ' +
  'simple quiet bright early late small gentle careful honest curious practical patient steady warm fresh ' +
  'build learn notice gather share repair plant visit cook write measure follow explore remember prepare improve ' +
  'people friends family teachers makers travelers readers neighbors gardeners cooks builders designers ' +
  'idea habit lesson method pattern routine choice question answer detail plan budget schedule map guide'
).split(' ');

const TITLE_OPENERS = ['How to', 'Notes on', 'A Guide to', 'Why We Love', 'Ten Ideas for', 'Lessons from', 'The Art of', 'Getting Started with', 'Rethinking', 'A Week of'];
const CONNECTORS = ['and', 'with', 'for', 'in', 'after', 'before', 'without', 'around', 'beyond', 'under'];
const LINK_HOSTS = ['https://example.org', 'https://example.com', 'https://example.net'];

export const AUTHORS = [
  { login: 'maria', display_name: 'Maria Lopez', role: 'editor' },
  { login: 'jonas', display_name: 'Jonas Berg', role: 'author' },
  { login: 'aiko', display_name: 'Aiko Tanaka', role: 'author' },
  { login: 'samuel', display_name: 'Samuel Okafor', role: 'author' },
  { login: 'claire', display_name: 'Claire Dubois', role: 'contributor' },
];

/** mulberry32: small, fast, good enough for demo data, and repeatable from a 32-bit seed. */
export function randomSource(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class ContentGenerator {
  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  private words(n: number): string[] {
    return Array.from({ length: n }, () => this.pick(WORDS));
  }

  private capitalized(words: string[]): string {
    return words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
  }

  title(): string {
    return `${this.pick(TITLE_OPENERS)} ${this.capitalized(this.words(this.int(1, 2)))} ${this.pick(CONNECTORS)} ${this.capitalized(this.words(this.int(1, 3)))}`;
  }

  sentence(min = 8, max = 18): string {
    const s = this.words(this.int(min, max)).join(' ');
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  }

  private paragraph(): string {
    const sentences = Array.from({ length: this.int(2, 4) }, () => this.sentence());
    if (this.chance(0.35)) {
      const w = this.pick(WORDS);
      sentences[1] = `${sentences[1].slice(0, -1)}, as the <a href="${this.pick(LINK_HOSTS)}/${w}/">${w} guide</a> explains.`;
    }
    return `<p>${sentences.join(' ')}</p>`;
  }

  /** An article: an intro, the more tag (lists show the intro and "Continue reading"), then sections under `<h2>` headings. */
  content(): string {
    const parts = [this.paragraph(), '<!--more-->'];
    const sections = this.int(2, 3);
    for (let s = 0; s < sections; s++) {
      parts.push(`<h2>${this.capitalized(this.words(this.int(2, 4)))}</h2>`);
      for (let p = this.int(1, 2); p > 0; p--) parts.push(this.paragraph());
    }
    return parts.join('\n\n');
  }

  excerpt(): string {
    return this.sentence(14, 24);
  }

  /** `count` distinct term names (two words, then numbered when the pairs run out). */
  termNames(count: number): string[] {
    const names = new Set<string>();
    let round = 0;
    while (names.size < count) {
      const base = this.capitalized(this.words(this.chance(0.5) ? 1 : 2));
      names.add(names.has(base) ? `${base} ${++round}` : base);
    }
    return [...names];
  }
}
