/**
 * remove_accents of WordPress 6.1 (wp-includes/formatting.php) for the site's locale (en_US):
 * each character its table folds, and what it becomes. The table is WordPress's own, read from
 * WordPress 6.1.9 character by character (U+0080 to U+2FFF; nothing above it is folded), grouped
 * here by what the characters become.
 */
const FOLDS: readonly (readonly [chars: string, becomes: string])[] = [
  ["£", ""],
  ["ÀÁÂÃÄÅĀĂĄǍẠẢẤẦẨẪẬẮẰẲẴẶ", "A"],
  ["ªàáâãäåāăąǎɑạảấầẩẫậắằẳẵặ", "a"],
  ["Æ", "AE"],
  ["æ", "ae"],
  ["ÇĆĈĊČ", "C"],
  ["çćĉċč", "c"],
  ["ÐĎĐ", "D"],
  ["ðďđ", "d"],
  ["ÈÉÊËĒĔĖĘĚẸẺẼẾỀỂỄỆ€", "E"],
  ["èéêëēĕėęěẹẻẽếềểễệ", "e"],
  ["ĜĞĠĢ", "G"],
  ["ĝğġģ", "g"],
  ["ĤĦ", "H"],
  ["ĥħ", "h"],
  ["ÌÍÎÏĨĪĬĮİǏỈỊ", "I"],
  ["ìíîïĩīĭįıǐỉị", "i"],
  ["Ĳ", "IJ"],
  ["ĳ", "ij"],
  ["Ĵ", "J"],
  ["ĵ", "j"],
  ["Ķ", "K"],
  ["ķĸ", "k"],
  ["ĹĻĽĿŁ", "L"],
  ["ĺļľŀł", "l"],
  ["ÑŃŅŇŊ", "N"],
  ["ñńņňŉŋ", "n"],
  ["ÒÓÔÕÖØŌŎŐƠǑỌỎỐỒỔỖỘỚỜỞỠỢ", "O"],
  ["ºòóôõöøōŏőơǒọỏốồổỗộớờởỡợ", "o"],
  ["Œ", "OE"],
  ["œ", "oe"],
  ["ŔŖŘ", "R"],
  ["ŕŗř", "r"],
  ["ŚŜŞŠȘ", "S"],
  ["ßśŝşšſș", "s"],
  ["ŢŤŦȚ", "T"],
  ["ţťŧț", "t"],
  ["Þ", "TH"],
  ["þ", "th"],
  ["ÙÚÛÜŨŪŬŮŰŲƯǓǕǗǙǛỤỦỨỪỬỮỰ", "U"],
  ["ùúûüũūŭůűųưǔǖǘǚǜụủứừửữự", "u"],
  ["Ŵ", "W"],
  ["ŵ", "w"],
  ["ÝŶŸỲỴỶỸ", "Y"],
  ["ýÿŷỳỵỷỹ", "y"],
  ["ŹŻŽ", "Z"],
  ["źżž", "z"],
];

const FOLDED = new Map<string, string>(FOLDS.flatMap(([chars, becomes]) => [...chars].map((c) => [c, becomes] as const)));

/** remove_accents: Latin letters with accents as their plain letters (`Ü` → `U`, `ß` → `s`, `Æ` → `AE`), other scripts untouched. */
export function removeAccents(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  let out = '';
  for (const c of text) out += FOLDED.get(c) ?? c;
  return out;
}
