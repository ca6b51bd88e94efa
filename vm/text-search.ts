/**
 * Finding text in text in time linear in the two lengths, for the string
 * methods a spell calls on text it controls (`contains`, `indexOf`,
 * `split`). JavaScript's own `indexOf` / `includes` / `split` are
 * O(length × pattern length) on crafted inputs ("aaaa…a" searched for
 * "aa…ab"): a cast charged the lengths of its inputs ran 600× longer per
 * unit of fuel than a plain loop (issue 17). So:
 *
 * - a short pattern (at most SHORT_PATTERN characters) uses the engine's
 *   search, whose worst case is then at most SHORT_PATTERN character
 *   comparisons per character of the text — native comparisons, far within
 *   the cost bound for the 1 fuel per character the methods charge;
 * - a longer one uses Knuth–Morris–Pratt: at most 2 comparisons per
 *   character of the text, plus the pattern's failure table.
 */

/** Patterns up to this long are searched by the engine (worst case: this many comparisons per text character). */
const SHORT_PATTERN = 16;

/** Where `pattern` first occurs in `text` at or after `from`, or -1. */
export function findText(text: string, pattern: string, from = 0): number {
  if (pattern.length <= SHORT_PATTERN) return text.indexOf(pattern, from);
  return kmpSearch(text, pattern, failureTable(pattern), from);
}

/** `text.split(separator)`, in linear time for any separator. */
export function splitText(text: string, separator: string): string[] {
  if (separator.length <= SHORT_PATTERN) return text.split(separator);
  const table = failureTable(separator);
  const parts: string[] = [];
  let start = 0;
  for (;;) {
    const at = kmpSearch(text, separator, table, start);
    if (at < 0) break;
    parts.push(text.slice(start, at));
    start = at + separator.length;
  }
  parts.push(text.slice(start));
  return parts;
}

/** KMP's failure table: for each prefix of `pattern`, the length of its longest proper prefix that is also its suffix. */
function failureTable(pattern: string): Int32Array {
  const table = new Int32Array(pattern.length);
  let k = 0;
  for (let i = 1; i < pattern.length; i++) {
    while (k > 0 && pattern.charCodeAt(i) !== pattern.charCodeAt(k)) k = table[k - 1]!;
    if (pattern.charCodeAt(i) === pattern.charCodeAt(k)) k++;
    table[i] = k;
  }
  return table;
}

function kmpSearch(text: string, pattern: string, table: Int32Array, from: number): number {
  const m = pattern.length;
  let k = 0;
  for (let i = Math.max(0, from); i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = table[k - 1]!;
    if (c === pattern.charCodeAt(k)) k++;
    if (k === m) return i - m + 1;
  }
  return -1;
}
