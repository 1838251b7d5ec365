/**
 * The spacing sizes WordPress 6.1 generates from theme.json's `settings.spacing.spacingScale`
 * (WP_Theme_JSON::set_spacing_sizes, run on the merged core, theme and user data): a medium step
 * (slug 50), the steps below it (40, 30, …) reached by undoing the operator, and the steps above it
 * (60, 70, …) by applying it, each rounded to two decimals and followed by the unit.
 */

export interface SpacingSize {
  name: string;
  slug: string;
  size: string;
}

/** PHP's is_numeric: a number, or a string holding one (leading whitespace allowed). */
const isNumeric = (v: unknown): boolean =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(v));

/** PHP's round(): half away from zero, after rounding to 15 significant digits as PHP does first. */
function phpRound(value: number, places: number): number {
  const scaled = Number((Math.abs(value) * 10 ** places).toPrecision(15));
  return (Math.sign(value) * Math.round(scaled)) / 10 ** places;
}

/** sanitize_title for a unit such as `rem`: lower case, spaces as dashes, nothing else but letters, digits, `_` and `-`. */
const unitOf = (unit: string): string =>
  unit === '%' ? '%' : unit.toLowerCase().replace(/\s+/g, '-').replace(/[^a-z0-9_-]/g, '').replace(/-+/g, '-').replace(/^-|-$/g, '');

/** The sizes for a spacing scale, or null when the scale is incomplete or invalid, or asks for no steps. */
export function spacingSizes(scale: unknown): SpacingSize[] | null {
  if (typeof scale !== 'object' || scale === null || Array.isArray(scale)) return null;
  const { steps, mediumStep, unit, operator, increment } = scale as Record<string, unknown>;
  if (!isNumeric(steps) || mediumStep == null || unit == null || (operator !== '+' && operator !== '*') || !isNumeric(increment) || !isNumeric(mediumStep)) return null;
  // a theme turns the scale off with `"steps": 0`
  if (steps === 0) return null;

  const stepCount = Number(steps);
  const by = Number(increment);
  const medium = Number(mediumStep);
  const suffix = unitOf(String(unit));
  const midPoint = phpRound(stepCount / 2, 0);

  const below: SpacingSize[] = [];
  let current = medium;
  let xSmallCount: number | null = null;
  let slug = 40;
  let remainder = 0;
  for (let count = midPoint - 1; stepCount > 1 && slug > 0 && count > 0; count--) {
    if (operator === '+') current -= by;
    else if (by > 1) current /= by;
    else current *= by;
    if (current <= 0) {
      // the steps that would fall to zero or below are added above the medium one instead
      remainder = count;
      break;
    }
    below.push({ name: count === midPoint - 1 ? 'Small' : `${xSmallCount ?? ''}X-Small`, slug: String(slug), size: `${phpRound(current, 2)}${suffix}` });
    if (count === midPoint - 2) xSmallCount = 2;
    if (count < midPoint - 2 && xSmallCount !== null) xSmallCount++;
    slug -= 10;
  }

  const sizes = below.reverse();
  sizes.push({ name: 'Medium', slug: '50', size: `${String(mediumStep)}${suffix}` });

  current = medium;
  let xLargeCount: number | null = null;
  slug = 60;
  const stepsAbove = stepCount - midPoint + remainder;
  for (let count = 0; count < stepsAbove; count++) {
    if (operator === '+') current += by;
    else current = by >= 1 ? current * by : current / by;
    sizes.push({ name: count === 0 ? 'Large' : `${xLargeCount ?? ''}X-Large`, slug: String(slug), size: `${phpRound(current, 2)}${suffix}` });
    if (count === 1) xLargeCount = 2;
    if (count > 1 && xLargeCount !== null) xLargeCount++;
    slug += 10;
  }

  // seven steps or fewer are named by number instead of by t-shirt size
  if (stepCount <= 7) sizes.forEach((size, i) => (size.name = String(i + 1)));
  return sizes;
}
