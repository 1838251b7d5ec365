/**
 * force_balance_tags (WordPress 6.1's formatting.php): every opened element closed, in order,
 * closing tags with nothing open dropped, a closing tag below the top of the stack closing what
 * is above it, void elements self-closed (`<br />`), an element of its own kind opened directly in
 * itself closed first (but for the nestable ones), a non-void `<x/>` closed at once.
 */

const VOID_TAGS = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const NESTABLE_TAGS = new Set(['article', 'aside', 'blockquote', 'details', 'div', 'figure', 'object', 'q', 'section', 'span']);

/** Group 1 the closing slash, 2 the name (a custom element's or a traditional one), 3 an empty tag's slash, 4 the space before attributes, 5 the attributes. */
const TAG = /<(\/?)((?:[a-z](?:[a-z0-9._]*)-(?:[a-z0-9._-]+)+)|(?:[\w:]+))(?:\s*(\/?)|(\s+)([^>]*))>/;
const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

export function forceBalanceTags(input: string): string {
  const stack: string[] = [];
  let queue = '';
  let out = '';
  // `< !--` meant as text, and `<3`, are not tags
  let text = input.split('< !--').join('<    !--').replace(/<([0-9])/g, '&lt;$1');
  for (let m = TAG.exec(text); m; m = TAG.exec(text)) {
    const [whole, slash, name, emptySlash, space, attrs] = m;
    let tag = name.toLowerCase();
    const isVoid = VOID_TAGS.has(tag);
    let preAttributeSpace = space ?? '';
    let attributes = (attrs ?? emptySlash ?? '').replace(PHP_TRIM, '');
    const selfClosed = attributes.endsWith('/');
    out += queue;
    queue = '';
    const at = text.indexOf(whole);
    let replacement = '';
    if (slash) {
      if (stack.length && stack[stack.length - 1] === tag) {
        replacement = `</${tag}>`;
        stack.pop();
      } else {
        const j = stack.lastIndexOf(tag);
        if (j >= 0) while (stack.length > j) queue += `</${stack.pop()}>`;
      }
    } else {
      if (selfClosed) {
        if (!isVoid) attributes = `${attributes.slice(0, -1).replace(PHP_TRIM, '')}></${tag}`;
      } else if (isVoid) {
        preAttributeSpace = ' ';
        attributes += '/';
      } else {
        if (stack.length && !NESTABLE_TAGS.has(tag) && stack[stack.length - 1] === tag) queue = `</${stack.pop()}>`;
        stack.push(tag);
      }
      // `<br />`, never `<br/>`
      if (selfClosed && isVoid) preAttributeSpace = ' ';
      tag = `<${tag}${preAttributeSpace}${attributes}>`;
      if (queue) {
        queue += tag;
        tag = '';
      }
      replacement = tag;
    }
    out += text.slice(0, at) + replacement;
    text = text.slice(at + whole.length);
  }
  out += queue + text;
  // PHP's `while ($x = array_pop(...))` stops at a name that is falsy ('0')
  for (let x = stack.pop(); x !== undefined && x !== '' && x !== '0'; x = stack.pop()) out += `</${x}>`;
  return out.split('< !--').join('<!--').split('<    !--').join('< !--');
}
