import { readFileSync } from 'node:fs';
import { flesch } from 'flesch';
import { syllable } from 'syllable';
import type { ContentLink, ParsedContent } from './content.ts';

/**
 * The SEO and readability analysis of one text (Yoast's yoastseo assessors, run on the server):
 * each assessment of assessments.json rates the text good, ok or bad, and the ratings make a
 * score of 0-100. English is the language analysed (the site's pages say `lang="en"`).
 */

type Rating = 'good' | 'ok' | 'bad';

export interface AssessmentResult {
  id: string;
  rating: Rating;
  score: number;
  /** The measured value the rating came from (a percentage, a count of words...), when there is one. */
  value?: number;
}

export interface Analysis {
  /** 0-100, or null when nothing could be assessed (no keyphrase, no text). */
  score: number | null;
  results: AssessmentResult[];
}

interface Thresholds {
  ratingScores: Record<Rating, number>;
  ranks: Record<'good' | 'ok' | 'bad', { min: number; max: number }>;
  readingSpeedWordsPerMinute: number;
  seo: Record<string, Record<string, number>>;
  readability: Record<string, Record<string, number>>;
}

const readJson = <T>(name: string): T => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;

export const THRESHOLDS = readJson<Thresholds>('./assessments.json');
const ENGLISH = readJson<Record<string, string[]>>('./english.json');
const FUNCTION_WORDS = new Set(ENGLISH.functionWords);
const TRANSITION_WORDS = new Set(ENGLISH.transitionWords);
const TRANSITION_PHRASES = ENGLISH.transitionPhrases.map((p) => p.split(' '));
const AUXILIARIES = new Set(ENGLISH.passiveAuxiliaries);
const IRREGULAR_PARTICIPLES = new Set(ENGLISH.irregularParticiples);
const NOT_PARTICIPLES = new Set(ENGLISH.notParticiples);
const SEO = THRESHOLDS.seo;
const READ = THRESHOLDS.readability;

/** The rank of a stored score (WPSEO_Rank::from_numeric_score): na for none. */
export function rankOf(score: number | null | undefined): 'good' | 'ok' | 'bad' | 'na' {
  if (score === null || score === undefined || score < THRESHOLDS.ranks.bad.min) return 'na';
  if (score >= THRESHOLDS.ranks.good.min) return 'good';
  if (score >= THRESHOLDS.ranks.ok.min) return 'ok';
  return 'bad';
}

const result = (id: string, rating: Rating, value?: number): AssessmentResult => ({ id, rating, score: THRESHOLDS.ratingScores[rating], ...(value === undefined ? {} : { value: Math.round(value * 100) / 100 }) });

/** Yoast's Assessor.calculateOverallScore: the points as a share of the best possible, at least 1 once anything was assessed. */
function overall(results: AssessmentResult[]): number | null {
  if (!results.length) return null;
  const total = results.reduce((sum, r) => sum + r.score, 0);
  return Math.min(100, Math.max(1, Math.round((total / (results.length * THRESHOLDS.ratingScores.good)) * 100)));
}

// --- text ---

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
/** A sentence ends at . ! ? or … followed by space and what can start a sentence; abbreviations do not end one. */
const SENTENCE_END = /(?<=[.!?…])["'”’)\]]*\s+(?=["'“‘(\[]?[\p{Lu}\p{N}])/u;
const ABBREVIATION = /(?:^|\s)(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|no|fig|approx|inc|ltd|co)\.$/i;

export const wordsOf = (text: string): string[] => (text.toLowerCase().replace(/’/g, "'").match(WORD) ?? []);

export function sentencesOf(text: string): string[] {
  const pieces = text.split(SENTENCE_END);
  const out: string[] = [];
  for (const piece of pieces) {
    if (out.length && ABBREVIATION.test(out[out.length - 1])) out[out.length - 1] += ` ${piece}`;
    else out.push(piece);
  }
  return out.map((s) => s.trim()).filter((s) => wordsOf(s).length > 0);
}

const syllableCache = new Map<string, number>();

/** Syllables of an English word (the `syllable` package), remembered: a site's vocabulary is small next to its word count. */
function syllables(word: string): number {
  let n = syllableCache.get(word);
  if (n === undefined) {
    n = Math.max(1, syllable(word));
    if (syllableCache.size < 50_000) syllableCache.set(word, n);
  }
  return n;
}

/** A text's words, sentences and paragraphs, computed once per analysis. */
export class Text {
  readonly paragraphs: string[];
  readonly subheadings: string[];
  readonly sentences: string[][];
  readonly words: string[];
  /** Words of each run of text between subheadings. */
  readonly sections: number[];

  constructor(readonly content: ParsedContent) {
    const prose = content.blocks.filter((b) => b.kind === 'p');
    this.paragraphs = prose.map((b) => b.text);
    this.subheadings = content.blocks.filter((b) => b.kind === 'h').map((b) => b.text);
    this.sentences = prose.flatMap((b) => sentencesOf(b.text)).map(wordsOf);
    this.words = this.sentences.flat();
    this.sections = [0];
    for (const b of content.blocks) {
      if (b.kind === 'h') this.sections.push(0);
      else if (b.kind === 'p') this.sections[this.sections.length - 1] += wordsOf(b.text).length;
    }
  }
}

// --- keyphrase matching ---

/** The keyphrase's words a match needs: its content words, or all its words when it has only function words. */
export function keyphraseWords(keyphrase: string): string[] {
  const words = wordsOf(keyphrase);
  const content = words.filter((w) => !FUNCTION_WORDS.has(w));
  return [...new Set(content.length ? content : words)];
}

/** A word of the text stands for a keyphrase word when equal, or its plural in -s/-es. */
const sameWord = (textWord: string, kw: string) => textWord === kw || textWord === `${kw}s` || textWord === `${kw}es` || `${textWord}s` === kw;

const countOf = (words: readonly string[], kw: string) => words.reduce((n, w) => n + (sameWord(w, kw) ? 1 : 0), 0);
const matchesAll = (words: readonly string[], kws: readonly string[]) => kws.length > 0 && kws.every((kw) => words.some((w) => sameWord(w, kw)));

// --- the SEO assessments ---

export interface SeoInput {
  keyphrase: string;
  /** The SEO title as the page shows it. */
  title: string;
  slug: string;
  /** The meta description the user wrote ('' when none). */
  metaDescription: string;
  text: Text;
  /** Whether a link points at this site. */
  isInternal(link: ContentLink): boolean;
}

const isFollowed = (l: ContentLink) => !l.rel.split(/\s+/).includes('nofollow');

function linksRating(links: ContentLink[]): Rating {
  if (!links.length) return 'bad';
  return links.some(isFollowed) ? 'good' : 'ok';
}

/** The SEO analysis: null score without a focus keyphrase, as Yoast shows no SEO score then. */
export function seoAnalysis(input: SeoInput): Analysis {
  const kws = keyphraseWords(input.keyphrase);
  if (!kws.length) return { score: null, results: [] };
  const { text } = input;
  const results: AssessmentResult[] = [];

  const title = input.title.toLowerCase().trim();
  const phrase = wordsOf(input.keyphrase).join(' ');
  const titleWords = wordsOf(title);
  results.push(result('keyphraseInTitle', titleWords.join(' ').startsWith(phrase) ? 'good' : matchesAll(titleWords, kws) ? 'ok' : 'bad'));

  const intro = text.paragraphs[0] ?? '';
  const introSentences = sentencesOf(intro).map(wordsOf);
  results.push(result('keyphraseInIntroduction', introSentences.some((s) => matchesAll(s, kws)) ? 'good' : matchesAll(wordsOf(intro), kws) ? 'ok' : 'bad'));

  const slugWords = input.slug.toLowerCase().split('-').filter(Boolean);
  const inSlug = kws.filter((kw) => slugWords.some((w) => sameWord(w, kw))).length / kws.length;
  results.push(result('keyphraseInSlug', inSlug === 1 ? 'good' : inSlug >= SEO.keyphraseInSlug.okMinShare ? 'ok' : 'bad', inSlug));

  const metaMatches = sentencesOf(input.metaDescription).filter((s) => matchesAll(wordsOf(s), kws)).length;
  results.push(result('keyphraseInMetaDescription', metaMatches === 0 ? 'bad' : metaMatches <= SEO.keyphraseInMetaDescription.goodMaxSentences ? 'good' : 'ok', metaMatches));

  if (text.subheadings.length) {
    const share = (text.subheadings.filter((h) => matchesAll(wordsOf(h), kws)).length / text.subheadings.length) * 100;
    const t = SEO.keyphraseInSubheadings;
    results.push(result('keyphraseInSubheadings', share === 0 ? 'bad' : share >= t.goodMinPercent && share <= t.goodMaxPercent ? 'good' : 'ok', share));
  }

  const metaLength = input.metaDescription.trim().length;
  const ml = SEO.metaDescriptionLength;
  results.push(result('metaDescriptionLength', metaLength === 0 ? 'bad' : metaLength >= ml.goodMin && metaLength <= ml.goodMax ? 'good' : 'ok', metaLength));

  const wordCount = text.words.length;
  const tl = SEO.textLength;
  results.push(result('textLength', wordCount >= tl.goodMin ? 'good' : wordCount >= tl.okMin ? 'ok' : 'bad', wordCount));

  const links = text.content.links;
  results.push(result('internalLinks', linksRating(links.filter((l) => input.isInternal(l)))));
  results.push(result('outboundLinks', linksRating(links.filter((l) => !input.isInternal(l)))));

  const images = text.content.images;
  results.push(result('imageAltAttributes', !images.length ? 'bad' : images.some((i) => i.alt !== null && matchesAll(wordsOf(i.alt), kws)) ? 'good' : 'ok', images.length));

  const occurrences = text.sentences.reduce((n, s) => n + Math.min(...kws.map((kw) => countOf(s, kw))), 0);
  const density = wordCount ? (occurrences / wordCount) * 100 : 0;
  const d = SEO.keyphraseDensity;
  results.push(result('keyphraseDensity', density >= d.goodMinPercent && density <= d.goodMaxPercent ? 'good' : density > d.goodMaxPercent && density <= d.okMaxPercent ? 'ok' : 'bad', density));

  return { score: overall(results), results };
}

// --- the readability assessments ---

function startsPhraseAt(words: readonly string[], i: number, phrase: readonly string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (words[i + k] !== phrase[k]) return false;
  return true;
}

function hasTransition(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    if (TRANSITION_WORDS.has(words[i])) return true;
    for (const p of TRANSITION_PHRASES) if (p[0] === words[i] && startsPhraseAt(words, i, p)) return true;
  }
  return false;
}

const CONTRACTED_AUXILIARY = /'(?:s|re|m)$/;
const isParticiple = (w: string) => IRREGULAR_PARTICIPLES.has(w) || (w.length > 4 && w.endsWith('ed') && !NOT_PARTICIPLES.has(w));

/** An auxiliary of be/get, then up to two adverbs or `not`, then a past participle. */
function isPassive(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    // a contraction (it's, they're) carries the auxiliary too
    if (!AUXILIARIES.has(words[i]) && !CONTRACTED_AUXILIARY.test(words[i])) continue;
    for (let j = i + 1; j <= i + 3 && j < words.length; j++) {
      if (isParticiple(words[j])) return true;
      if (!(words[j] === 'not' || words[j].endsWith('ly'))) break;
    }
  }
  return false;
}

export interface ReadabilityAnalysis extends Analysis {
  wordCount: number;
  /** Flesch reading ease, when the text has words. */
  fleschReadingEase?: number;
  readingTimeMinutes: number;
}

/** The readability analysis: null score for a text without words. */
export function readabilityAnalysis(text: Text): ReadabilityAnalysis {
  const wordCount = text.words.length;
  const readingTimeMinutes = Math.ceil(wordCount / THRESHOLDS.readingSpeedWordsPerMinute);
  if (!wordCount) return { score: null, results: [], wordCount, readingTimeMinutes };
  const results: AssessmentResult[] = [];

  const ease = flesch({ sentence: text.sentences.length, word: wordCount, syllable: text.words.reduce((n, w) => n + syllables(w), 0) });
  const f = READ.fleschReadingEase;
  results.push(result('fleschReadingEase', ease >= f.goodMin ? 'good' : ease >= f.okMin ? 'ok' : 'bad', ease));

  const sl = READ.sentenceLength;
  const longShare = (text.sentences.filter((s) => s.length > sl.longSentenceWords).length / text.sentences.length) * 100;
  results.push(result('sentenceLength', longShare <= sl.goodMaxPercent ? 'good' : longShare <= sl.okMaxPercent ? 'ok' : 'bad', longShare));

  const pl = READ.paragraphLength;
  const longest = Math.max(0, ...text.paragraphs.map((p) => wordsOf(p).length));
  results.push(result('paragraphLength', longest <= pl.goodMaxWords ? 'good' : longest <= pl.okMaxWords ? 'ok' : 'bad', longest));

  const sd = READ.subheadingDistribution;
  const longestSection = wordCount <= sd.goodMaxWords ? wordCount : Math.max(...text.sections);
  results.push(result('subheadingDistribution', longestSection <= sd.goodMaxWords ? 'good' : longestSection <= sd.okMaxWords ? 'ok' : 'bad', longestSection));

  const tw = READ.transitionWords;
  if (wordCount >= tw.minTextWords) {
    const share = (text.sentences.filter(hasTransition).length / text.sentences.length) * 100;
    results.push(result('transitionWords', share >= tw.goodMinPercent ? 'good' : share >= tw.okMinPercent ? 'ok' : 'bad', share));
  }

  const pv = READ.passiveVoice;
  const passiveShare = (text.sentences.filter(isPassive).length / text.sentences.length) * 100;
  results.push(result('passiveVoice', passiveShare <= pv.goodMaxPercent ? 'good' : passiveShare <= pv.okMaxPercent ? 'ok' : 'bad', passiveShare));

  return { score: overall(results), results, wordCount, fleschReadingEase: Math.round(ease * 100) / 100, readingTimeMinutes };
}
