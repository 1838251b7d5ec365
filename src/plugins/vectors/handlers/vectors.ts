import { RestError } from '../../../engine/index.ts';
import type { Ctx } from '../../../core/context.ts';
import { VECTOR_TYPE } from '../plugin.ts';
import { sanitizedSvgText } from '../sanitize.ts';
import { storeSvgPost, titleOf } from '../store.ts';

/** POST vectors: the SVG sanitised and stored as a designkit_vector post; `{value, label}`. */
export async function create(ctx: Ctx<'vectors:vectors.create'>) {
  const markup = ctx.args.vectorSVG;
  // invalid_svg's other wording: nothing was sent at all
  if (typeof markup !== 'string' || !markup.trim()) throw new RestError('invalid_svg', 'No SVG was sent (vectorSVG).', 400);
  const svg = await sanitizedSvgText(markup);
  if (!svg) throw ctx.fail('invalid_svg');
  const title = titleOf(ctx.args.title, 'Vector');
  const id = await storeSvgPost(ctx, VECTOR_TYPE, title, svg, 'image/svg+xml');
  return { value: id, label: title };
}
