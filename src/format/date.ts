const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * PHP date() formatting of a site-local 'YYYY-MM-DD HH:MM:SS' for date_format / time_format: the
 * characters WordPress's settings screen offers; `\x` escapes, anything else prints as is.
 */
export function formatLocalDate(format: string, local: string): string {
  const [y, mo, d, h, mi, s] = [0, 5, 8, 11, 14, 17].map((at, i) => Number(local.slice(at, i === 0 ? 4 : at + 2)) || 0);
  const weekday = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
  const pad = (n: number) => String(n).padStart(2, '0');
  const h12 = h % 12 || 12;
  const suffix = d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th';
  const parts: Record<string, string> = {
    d: pad(d), j: String(d), S: suffix, D: DAYS[weekday].slice(0, 3), l: DAYS[weekday], N: String(weekday || 7), w: String(weekday),
    F: MONTHS[mo - 1] ?? '', M: (MONTHS[mo - 1] ?? '').slice(0, 3), m: pad(mo), n: String(mo),
    Y: String(y), y: pad(y % 100),
    a: h < 12 ? 'am' : 'pm', A: h < 12 ? 'AM' : 'PM', g: String(h12), h: pad(h12), G: String(h), H: pad(h), i: pad(mi), s: pad(s),
  };
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c === '\\' && i + 1 < format.length) out += format[++i];
    else out += parts[c] ?? c;
  }
  return out;
}
