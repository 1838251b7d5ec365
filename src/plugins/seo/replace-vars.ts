/**
 * Yoast's replacement variables (WPSEO_Replace_Vars): `%%name%%` in a title or description
 * template becomes the page's value, an unknown or empty one nothing; then the text is tidied as
 * Yoast tidies it, so an empty `%%page%%` leaves no double space or dangling separator.
 */

export type Vars = Record<string, string | undefined>;

const VARIABLE = /%%([a-z_]+)%%/g;
const SPACES = /\s+/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function replaceVars(template: string, vars: Vars): string {
  const sep = vars.sep ?? '';
  let out = template.replace(VARIABLE, (_, name: string) => vars[name] ?? '').replace(SPACES, ' ').trim();
  if (sep) {
    const s = escapeRegExp(sep);
    // separators next to each other (an empty variable between them) collapse to one; none at either end
    out = out.replace(new RegExp(`(?:\\s*${s}\\s*){2,}`, 'g'), ` ${sep} `);
    out = out.replace(new RegExp(`^(?:\\s*${s}\\s*)+|(?:\\s*${s}\\s*)+$`, 'g'), '');
  }
  return out.trim();
}
