/**
 * Texts with known ranks for each assessment of assessments.json: one post per (assessment, rank),
 * built from plain one-syllable filler so that only what a case varies moves its assessment.
 */

const FILLER = ['we', 'walk', 'to', 'the', 'park', 'and', 'see', 'a', 'big', 'oak', 'by', 'lake', 'with', 'my', 'dog', 'on', 'warm', 'days'];
const LONG_WORDS = ['international', 'organizational', 'responsibility', 'considerations', 'administrative', 'infrastructure', 'communication', 'implementation'];

let cursor = 0;
/** `n` filler words, continuing through the list so texts do not repeat one word. */
export function filler(n: number, pool = FILLER): string[] {
  return Array.from({ length: n }, () => pool[cursor++ % pool.length]);
}

/** A sentence of `n` words: filler with `extra` words at its start. */
export function sentence(n: number, extra: string[] = [], pool = FILLER): string {
  const words = [...extra, ...filler(Math.max(0, n - extra.length), pool)];
  const s = words.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

/** Paragraphs of `count` sentences of `length` words. */
export const paragraph = (sentences: string[]) => `<p>${sentences.join(' ')}</p>`;
const plain = (words: number, perSentence = 10) => Array.from({ length: Math.ceil(words / perSentence) }, (_, i) => sentence(Math.min(perSentence, words - i * perSentence)));
/** Running text of about `words` words, in paragraphs of 5 sentences. */
export function body(words: number, perSentence = 10): string {
  const s = plain(words, perSentence);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += 5) out.push(paragraph(s.slice(i, i + 5)));
  return out.join('\n');
}

export interface Case {
  assessment: string;
  rank: 'good' | 'ok' | 'bad';
  title: string;
  slug?: string;
  content: string;
  keyphrase?: string;
  metaDescription?: string;
}

const KP = 'green tea';
const kp = (c: Omit<Case, 'keyphrase'>): Case => ({ keyphrase: KP, ...c });
const subheaded = (headings: string[]) => headings.map((h) => `<h2>${h}</h2>\n${body(40)}`).join('\n');
const meta130 = 'We walk to the park and see a big oak by the lake, with my dog on warm days, and we take green tea in a flask to share there.';

export const SEO_CASES: Case[] = [
  kp({ assessment: 'keyphraseInTitle', rank: 'good', title: 'Green tea for beginners', content: body(50) }),
  kp({ assessment: 'keyphraseInTitle', rank: 'ok', title: 'Brewing tea that is green', content: body(50) }),
  kp({ assessment: 'keyphraseInTitle', rank: 'bad', title: 'Brewing coffee', content: body(50) }),
  kp({ assessment: 'keyphraseInIntroduction', rank: 'good', title: 'Intro one', content: `${paragraph([sentence(10, ['green', 'tea', 'is']), sentence(10)])}\n${body(50)}` }),
  kp({ assessment: 'keyphraseInIntroduction', rank: 'ok', title: 'Intro two', content: `${paragraph([sentence(10, ['tea', 'is']), sentence(10, ['leaves', 'are', 'green'])])}\n${body(50)}` }),
  kp({ assessment: 'keyphraseInIntroduction', rank: 'bad', title: 'Intro three', content: `${paragraph([sentence(10), sentence(10)])}\n${paragraph([sentence(10, ['green', 'tea'])])}` }),
  kp({ assessment: 'keyphraseInSlug', rank: 'good', title: 'Slug one', slug: 'green-tea-guide', content: body(50) }),
  kp({ assessment: 'keyphraseInSlug', rank: 'ok', title: 'Slug two', slug: 'green-guide', content: body(50) }),
  kp({ assessment: 'keyphraseInSlug', rank: 'bad', title: 'Slug three', slug: 'coffee-guide', content: body(50) }),
  kp({ assessment: 'keyphraseInMetaDescription', rank: 'good', title: 'Meta one', metaDescription: 'Learn to brew green tea at home.', content: body(50) }),
  kp({ assessment: 'keyphraseInMetaDescription', rank: 'ok', title: 'Meta two', metaDescription: 'Green tea is good. We like green tea. Brew green tea now.', content: body(50) }),
  kp({ assessment: 'keyphraseInMetaDescription', rank: 'bad', title: 'Meta three', metaDescription: 'Learn to brew coffee at home.', content: body(50) }),
  kp({ assessment: 'keyphraseInSubheadings', rank: 'good', title: 'Heads one', content: subheaded(['Green tea at home', 'Why green tea', 'Cups', 'Pots']) }),
  kp({ assessment: 'keyphraseInSubheadings', rank: 'ok', title: 'Heads two', content: subheaded(['Green tea at home', 'Cups', 'Pots', 'Leaves', 'Water']) }),
  kp({ assessment: 'keyphraseInSubheadings', rank: 'bad', title: 'Heads three', content: subheaded(['Cups', 'Pots', 'Water']) }),
  kp({ assessment: 'metaDescriptionLength', rank: 'good', title: 'Length one', metaDescription: meta130, content: body(50) }),
  kp({ assessment: 'metaDescriptionLength', rank: 'ok', title: 'Length two', metaDescription: 'Brew green tea at home.', content: body(50) }),
  kp({ assessment: 'metaDescriptionLength', rank: 'bad', title: 'Length three', content: body(50) }),
  kp({ assessment: 'textLength', rank: 'good', title: 'Words one', content: body(320) }),
  kp({ assessment: 'textLength', rank: 'ok', title: 'Words two', content: body(250) }),
  kp({ assessment: 'textLength', rank: 'bad', title: 'Words three', content: body(100) }),
  kp({ assessment: 'internalLinks', rank: 'good', title: 'Inside one', content: `${body(50)}\n<p>See <a href="/">home</a>.</p>` }),
  kp({ assessment: 'internalLinks', rank: 'ok', title: 'Inside two', content: `${body(50)}\n<p>See <a href="/" rel="nofollow">home</a>.</p>` }),
  kp({ assessment: 'internalLinks', rank: 'bad', title: 'Inside three', content: `${body(50)}\n<p>See <a href="https://example.org/">there</a>.</p>` }),
  kp({ assessment: 'outboundLinks', rank: 'good', title: 'Out one', content: `${body(50)}\n<p>See <a href="https://example.org/">there</a>.</p>` }),
  kp({ assessment: 'outboundLinks', rank: 'ok', title: 'Out two', content: `${body(50)}\n<p>See <a href="https://example.org/" rel="nofollow ugc">there</a>.</p>` }),
  kp({ assessment: 'outboundLinks', rank: 'bad', title: 'Out three', content: `${body(50)}\n<p>See <a href="/">home</a>.</p>` }),
  kp({ assessment: 'imageAltAttributes', rank: 'good', title: 'Image one', content: `${body(50)}\n<p><img src="/cup.png" alt="A cup of green tea"></p>` }),
  kp({ assessment: 'imageAltAttributes', rank: 'ok', title: 'Image two', content: `${body(50)}\n<p><img src="/cup.png" alt="A cup"> <img src="/pot.png"></p>` }),
  kp({ assessment: 'imageAltAttributes', rank: 'bad', title: 'Image three', content: body(50) }),
  // 300 words in 30 sentences: 4 sentences with the keyphrase are 1.3%; 11 are 3.7%; none 0%
  kp({ assessment: 'keyphraseDensity', rank: 'good', title: 'Density one', content: [paragraph(Array.from({ length: 4 }, () => sentence(10, ['green', 'tea']))), body(260)].join('\n') }),
  kp({ assessment: 'keyphraseDensity', rank: 'ok', title: 'Density two', content: [paragraph(Array.from({ length: 11 }, () => sentence(10, ['green', 'tea']))), body(190)].join('\n') }),
  kp({ assessment: 'keyphraseDensity', rank: 'bad', title: 'Density three', content: body(300) }),
];

const transitionText = (withTransition: number, of: number) => paragraph(Array.from({ length: of }, (_, i) => sentence(10, i < withTransition ? ['however'] : [])));
const passiveText = (passive: number, of: number) => paragraph(Array.from({ length: of }, (_, i) => sentence(10, i < passive ? ['the', 'cake', 'was', 'eaten'] : [])));

export const READABILITY_CASES: Case[] = [
  { assessment: 'fleschReadingEase', rank: 'good', title: 'Ease one', content: body(100) },
  { assessment: 'fleschReadingEase', rank: 'ok', title: 'Ease two', content: paragraph(Array(8).fill('Our family walks to the pretty garden beside the river every morning.')) },
  { assessment: 'fleschReadingEase', rank: 'bad', title: 'Ease three', content: paragraph(Array.from({ length: 8 }, () => sentence(12, [], LONG_WORDS))) },
  { assessment: 'sentenceLength', rank: 'good', title: 'Sentences one', content: body(100, 10) },
  { assessment: 'sentenceLength', rank: 'ok', title: 'Sentences two', content: paragraph([...Array.from({ length: 3 }, () => sentence(22)), ...Array.from({ length: 8 }, () => sentence(8))]) },
  { assessment: 'sentenceLength', rank: 'bad', title: 'Sentences three', content: paragraph([...Array.from({ length: 4 }, () => sentence(22)), ...Array.from({ length: 4 }, () => sentence(8))]) },
  { assessment: 'paragraphLength', rank: 'good', title: 'Paragraphs one', content: body(140) },
  { assessment: 'paragraphLength', rank: 'ok', title: 'Paragraphs two', content: paragraph(plain(170)) },
  { assessment: 'paragraphLength', rank: 'bad', title: 'Paragraphs three', content: paragraph(plain(220)) },
  { assessment: 'subheadingDistribution', rank: 'good', title: 'Sections one', content: `${body(200)}\n<h2>More</h2>\n${body(200)}` },
  { assessment: 'subheadingDistribution', rank: 'ok', title: 'Sections two', content: `${body(320)}\n<h2>More</h2>\n${body(100)}` },
  { assessment: 'subheadingDistribution', rank: 'bad', title: 'Sections three', content: body(400) },
  { assessment: 'transitionWords', rank: 'good', title: 'Transitions one', content: transitionText(8, 20) },
  { assessment: 'transitionWords', rank: 'ok', title: 'Transitions two', content: transitionText(5, 20) },
  { assessment: 'transitionWords', rank: 'bad', title: 'Transitions three', content: transitionText(1, 20) },
  { assessment: 'passiveVoice', rank: 'good', title: 'Passive one', content: passiveText(0, 8) },
  { assessment: 'passiveVoice', rank: 'ok', title: 'Passive two', content: passiveText(1, 8) },
  { assessment: 'passiveVoice', rank: 'bad', title: 'Passive three', content: passiveText(3, 8) },
];
