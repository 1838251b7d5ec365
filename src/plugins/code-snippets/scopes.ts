/** The language a snippet's code is written in. */
export type SnippetType = 'php' | 'html' | 'css' | 'js';

/** Snippet::get_type_from_scope: `*-css` → css, `*-js` → js, `*content` → html, everything else php. */
export function typeOfScope(scope: string): SnippetType {
  if (scope.endsWith('-css')) return 'css';
  if (scope.endsWith('-js')) return 'js';
  if (scope.endsWith('content')) return 'html';
  return 'php';
}

const PHP_OPEN = /^\s*<\?(php)?\s*/;
const PHP_CLOSE = /\s*\?>\s*$/;

/** What save_snippet stores for PHP code: without a leading `<?php`/`<?` and a trailing `?>` (nor the blank space they leave). */
export function normaliseCode(code: string, scope: string): string {
  return typeOfScope(scope) === 'php' ? code.replace(PHP_OPEN, '').replace(PHP_CLOSE, '') : code;
}
