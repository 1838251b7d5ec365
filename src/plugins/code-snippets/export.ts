import type { Snippet } from './repo.ts';
import { stripTagsKeepingLines } from '../../format/format.ts';
import { sanitizeSlug } from '../../store/transact.ts';
import { typeOfScope } from './scopes.ts';
import type { SnippetShape } from './shape.ts';

/** Who wrote the export, in the plugin's `Code Snippets v<version>` form. */
export const GENERATOR = 'Code Snippets v3.6.x-compatible (cms-spec)';

/** The plugin's export bundle: its importers read `snippets`, each holding only what differs from a new snippet. */
export interface ExportBundle {
  generator: string;
  date_created: string;
  snippets: Record<string, unknown>[];
}

/** PHP's truthiness, which get_modified_fields applies before comparing with the default. */
const truthy = (v: unknown) => !(v === null || v === undefined || v === false || v === 0 || v === '' || v === '0' || (Array.isArray(v) && v.length === 0));

const CRLF = /\r\n/g;

/** Export_JSON: `date_created` is gmdate('Y-m-d H:i'); CRLF becomes LF in every string. */
export function exportBundle(snippet: Snippet, shape: SnippetShape, now: Date): ExportBundle {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(shape.present(snippet))) {
    const isDefault = shape.defaultOf.has(name) && JSON.stringify(value) === JSON.stringify(shape.defaultOf.get(name));
    if (name === 'name' || (truthy(value) && !isDefault)) fields[name] = typeof value === 'string' ? value.replace(CRLF, '\n') : value;
  }
  return { generator: GENERATOR, date_created: now.toISOString().slice(0, 16).replace('T', ' '), snippets: [fields] };
}

const NEWLINE = /\n/g;

/**
 * Export_Code: PHP and HTML snippets as a PHP file (open tag, a docblock with the name and the
 * description, the code; a `content` snippet becomes a shortcode), CSS and JS under a comment
 * header with the name and the description.
 */
export function exportCode(snippet: Snippet): string {
  const type = typeOfScope(snippet.scope);
  if (type === 'css' || type === 'js') {
    let out = '\n/*\n';
    if (snippet.name) out += `${stripTagsKeepingLines(snippet.name)}\n\n`;
    if (snippet.desc) out += `${stripTagsKeepingLines(snippet.desc)}\n`;
    return `${out}*/\n\n${snippet.code}\n\n`;
  }
  let out = '<?php\n';
  let code = snippet.code.trim();
  if (!code) return out;
  out += `\n/**\n * ${snippet.name || `Snippet #${snippet.id}`}\n`;
  if (snippet.desc) out += ` *\n * ${stripTagsKeepingLines(snippet.desc.replace(NEWLINE, '\n * '))}\n`;
  out += ' */\n';
  if (snippet.scope === 'content') {
    code = `add_shortcode( 'code_snippets_export_${snippet.id}', function () {\n\tob_start();\n\t?>\n\n\t${code.replace(NEWLINE, '\n\t')}\n\n\t<?php\n\treturn ob_get_clean();\n} );`;
  }
  return `${out}${code}\n`;
}

/** `<slug of the name>.code-snippets.<ext>`, as the plugin suggests the download's name. */
export function suggestedFilename(snippet: Snippet, extension: string): string {
  return `${sanitizeSlug(snippet.name) || `snippet-${snippet.id}`}.code-snippets.${extension}`;
}
