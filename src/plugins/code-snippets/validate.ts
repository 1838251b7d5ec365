import { createRequire } from 'node:module';
import type { CodeError } from './repo.ts';
import { typeOfScope } from './scopes.ts';

/**
 * Checks a snippet's code without running it, as the plugin's test run would catch it: JavaScript
 * is parsed, CSS and PHP are scanned for unbalanced brackets, unterminated strings and comments,
 * HTML for unbalanced tags. Returns `[message, line]` for the first problem, or null.
 */
export function validateCode(code: string, scope: string): CodeError | null {
  switch (typeOfScope(scope)) {
    case 'js':
      return checkJs(code);
    case 'css':
      return checkCss(new Source(code));
    case 'html':
      return checkHtml(new Source(code));
    case 'php':
      return checkPhp(new Source(code));
  }
}

/** The code being scanned, with line numbers for any offset. */
class Source {
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  lineAt(pos: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** Thrown inside a scanner to stop at the first problem. */
class CodeProblem extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const scanned = (scan: () => void): CodeError | null => {
  try {
    scan();
    return null;
  } catch (e) {
    if (e instanceof CodeProblem) return [e.message, e.line];
    throw e;
  }
};

// --- brackets, shared by the CSS and PHP scanners; messages as PHP 8's parser words them ---

const CLOSER_OF: Record<string, string> = { '{': '}', '(': ')', '[': ']' };
const OPENER_OF: Record<string, string> = { '}': '{', ')': '(', ']': '[' };

class Brackets {
  private readonly stack: { ch: string; pos: number }[] = [];

  constructor(private readonly src: Source) {}

  /** Feeds one character; returns true when it was a bracket. */
  take(ch: string, pos: number): boolean {
    if (ch in CLOSER_OF) {
      this.stack.push({ ch, pos });
      return true;
    }
    if (!(ch in OPENER_OF)) return false;
    const top = this.stack.pop();
    if (!top) throw new CodeProblem(`Unmatched '${ch}'`, this.src.lineAt(pos));
    if (top.ch !== OPENER_OF[ch]) throw new CodeProblem(`Unclosed '${top.ch}' on line ${this.src.lineAt(top.pos)} does not match '${ch}'`, this.src.lineAt(pos));
    return true;
  }

  end(): void {
    const open = this.stack.pop();
    if (open) {
      const line = this.src.lineAt(open.pos);
      throw new CodeProblem(`Unclosed '${open.ch}' on line ${line}`, line);
    }
  }
}

/** Index just past the quote that closes the string opening at `start`; backslash escapes. */
function skipQuoted(src: Source, start: number, stopAtNewline: boolean): number {
  const text = src.text;
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === quote) return i + 1;
    else if (stopAtNewline && ch === '\n') break;
  }
  throw new CodeProblem(`Unterminated string starting on line ${src.lineAt(start)}`, src.lineAt(start));
}

function skipBlockComment(src: Source, start: number): number {
  const end = src.text.indexOf('*/', start + 2);
  if (end < 0) throw new CodeProblem(`Unterminated comment starting line ${src.lineAt(start)}`, src.lineAt(start));
  return end + 2;
}

// --- JavaScript: parsed by acorn, never run ---

const ACORN_POSITION = /\s*\(\d+:\d+\)$/;

let acorn: typeof import('acorn') | undefined;

/** acorn is required when the first JavaScript snippet is checked, not at start-up, which most runs never need it for. */
function parseJs(code: string, options: import('acorn').Options): void {
  acorn ??= createRequire(import.meta.url)('acorn') as typeof import('acorn');
  acorn.parse(code, options);
}

function checkJs(code: string): CodeError | null {
  try {
    parseJs(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
    return null;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const loc = (e as SyntaxError & { loc?: { line: number } }).loc;
    return [e.message.replace(ACORN_POSITION, ''), loc?.line ?? 1];
  }
}

// --- CSS: brackets outside strings and comments ---

function checkCss(src: Source): CodeError | null {
  return scanned(() => {
    const text = src.text;
    const brackets = new Brackets(src);
    for (let i = 0; i < text.length; ) {
      const ch = text[i];
      if (ch === '/' && text[i + 1] === '*') i = skipBlockComment(src, i);
      else if (ch === '"' || ch === "'") i = skipQuoted(src, i, true);
      else if (ch === '\\') i += 2;
      else {
        brackets.take(ch, i);
        i++;
      }
    }
    brackets.end();
  });
}

// --- PHP: a tokenizer-level pass over code, strings, heredocs, comments and inline HTML ---

const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;
const HEREDOC_START = /<<<[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_]*)\1\r?\n/y;
const PHP_OPEN_TAG = /<\?(?:php\b|=)?/gi;

function checkPhp(src: Source): CodeError | null {
  return scanned(() => {
    const text = src.text;
    const brackets = new Brackets(src);
    let i = 0;
    while (i < text.length) {
      const ch = text[i];
      const next = text[i + 1];
      if (ch === '?' && next === '>') {
        // inline HTML until the next open tag, or to the end
        PHP_OPEN_TAG.lastIndex = i + 2;
        const open = PHP_OPEN_TAG.exec(text);
        if (!open) break;
        i = open.index + open[0].length;
      } else if ((ch === '/' && next === '/') || (ch === '#' && next !== '[')) {
        i = skipLineComment(text, i);
      } else if (ch === '/' && next === '*') {
        i = skipBlockComment(src, i);
      } else if (ch === "'") {
        i = skipQuoted(src, i, false);
      } else if (ch === '"' || ch === '`') {
        i = skipInterpolated(src, i, ch);
      } else if (ch === '<' && text.startsWith('<<<', i)) {
        i = skipHeredoc(src, i);
      } else {
        brackets.take(ch, i);
        i++;
      }
    }
    brackets.end();
  });
}

/** A `//` or `#` comment ends at the line's end or at a closing `?>`. */
function skipLineComment(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\n') return i + 1;
    if (text[i] === '?' && text[i + 1] === '>') return i;
  }
  return text.length;
}

/** A double-quoted or backtick string; `{$...}` and `${...}` hold code that may itself contain quotes and braces. */
function skipInterpolated(src: Source, start: number, quote: string): number {
  const text = src.text;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === quote) return i + 1;
    else if ((ch === '{' && text[i + 1] === '$') || (ch === '$' && text[i + 1] === '{')) i = skipInterpolation(src, ch === '{' ? i : i + 1) - 1;
  }
  throw new CodeProblem(`Unterminated string starting on line ${src.lineAt(start)}`, src.lineAt(start));
}

function skipInterpolation(src: Source, open: number): number {
  const text = src.text;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") i = skipQuoted(src, i, false) - 1;
    else if (ch === '"') i = skipInterpolated(src, i, '"') - 1;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i + 1;
  }
  throw new CodeProblem(`Unterminated string starting on line ${src.lineAt(open)}`, src.lineAt(open));
}

/** Heredoc and nowdoc: the body ends at a line holding only (indentation and) the identifier. */
function skipHeredoc(src: Source, start: number): number {
  const text = src.text;
  HEREDOC_START.lastIndex = start;
  const m = HEREDOC_START.exec(text);
  if (!m) throw new CodeProblem('syntax error, unexpected token "<<"', src.lineAt(start));
  const id = m[2];
  for (let line = start + m[0].length; line <= text.length; ) {
    let j = line;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (text.startsWith(id, j) && !IDENTIFIER_CHAR.test(text[j + id.length] ?? '')) return j + id.length;
    const nl = text.indexOf('\n', line);
    if (nl < 0) break;
    line = nl + 1;
  }
  throw new CodeProblem(`Unterminated heredoc "${id}" starting on line ${src.lineAt(start)}`, src.lineAt(start));
}

// --- HTML: every element closed, except void elements and those whose end tag is optional ---

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const OPTIONAL_END = new Set(['html', 'head', 'body', 'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption', 'rb', 'rt', 'rtc', 'rp']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);
const TAG_NAME = /([A-Za-z][A-Za-z0-9:-]*)/y;

function checkHtml(src: Source): CodeError | null {
  return scanned(() => {
    const text = src.text;
    const open: { name: string; pos: number }[] = [];
    const unclosed = (el: { name: string; pos: number }) => new CodeProblem(`Unclosed tag <${el.name}> opened on line ${src.lineAt(el.pos)}`, src.lineAt(el.pos));
    let i = text.indexOf('<');
    while (i >= 0 && i < text.length) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0) throw new CodeProblem(`Unterminated comment starting line ${src.lineAt(i)}`, src.lineAt(i));
        i = text.indexOf('<', end + 3);
        continue;
      }
      const closing = text[i + 1] === '/';
      TAG_NAME.lastIndex = i + (closing ? 2 : 1);
      const m = TAG_NAME.exec(text);
      if (!m && text[i + 1] !== '!' && text[i + 1] !== '?') {
        i = text.indexOf('<', i + 1); // a lone '<' is text
        continue;
      }
      const end = tagEnd(src, i);
      if (m) {
        const name = m[1].toLowerCase();
        if (closing) closeElement(src, open, name, i, unclosed);
        else if (!VOID_ELEMENTS.has(name) && text[end - 2] !== '/') {
          if (RAW_TEXT.has(name)) {
            const close = text.toLowerCase().indexOf(`</${name}`, end);
            if (close < 0) throw unclosed({ name, pos: i });
            i = text.indexOf('<', close + 2 + name.length);
            continue;
          }
          open.push({ name, pos: i });
        }
      }
      i = text.indexOf('<', end);
    }
    for (let k = open.length - 1; k >= 0; k--) if (!OPTIONAL_END.has(open[k].name)) throw unclosed(open[k]);
  });
}

/** Index just past the `>` ending the tag at `start`; quoted attribute values may hold `>`. */
function tagEnd(src: Source, start: number): number {
  const text = src.text;
  let afterEquals = false;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '>') return i + 1;
    if ((ch === '"' || ch === "'") && afterEquals) i = skipQuoted(src, i, false) - 1;
    if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') afterEquals = ch === '=';
  }
  throw new CodeProblem(`Unterminated tag starting on line ${src.lineAt(start)}`, src.lineAt(start));
}

/** An end tag closes the nearest open element of its name, implying the end of optional-end elements in between. */
function closeElement(src: Source, open: { name: string; pos: number }[], name: string, pos: number, unclosed: (el: { name: string; pos: number }) => CodeProblem): void {
  let k = open.length - 1;
  while (k >= 0 && open[k].name !== name) k--;
  if (k < 0) throw new CodeProblem(`Unexpected closing tag </${name}> on line ${src.lineAt(pos)}`, src.lineAt(pos));
  for (let j = open.length - 1; j > k; j--) if (!OPTIONAL_END.has(open[j].name)) throw unclosed(open[j]);
  open.length = k;
}
