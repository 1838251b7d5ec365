/** Edit distance counting a swap of two neighbours as one edit (optimal string alignment), the commonest typos. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * ` (did you mean 'public'?)` for the known name nearest to a misspelt one, or '' when none is
 * close: within a third of the name's length (at least one edit), so short names get no wild guesses.
 */
export function didYouMean(name: string, known: Iterable<string>): string {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const k of known) {
    const distance = editDistance(name.toLowerCase(), k.toLowerCase());
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && k < best)) [best, bestDistance] = [k, distance];
  }
  return best === undefined ? '' : ` (did you mean '${best}'?)`;
}
