/**
 * Spell-controlled text copied into an error message or an event is cut to a
 * bounded length, with the full length said, so a 4 MB string cannot make
 * every error or event that mentions it 4 MB (docs/security.md, output).
 */

/** Longest spell text an error message or an event quotes in full. */
export const MAX_QUOTED_TEXT = 200;

/** `text` itself when short; else its first MAX_QUOTED_TEXT characters, `…` and the length: `aaaa… (4,194,304 characters)`. */
export function boundedText(text: string, max = MAX_QUOTED_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${groupDigits(text.length)} characters)`;
}

/** `'name'` for messages: quoted, and bounded as boundedText. A long name reads `'aaaa…' (1,000,000 characters)`. */
export function quoted(text: string, max = MAX_QUOTED_TEXT): string {
  if (text.length <= max) return `'${text}'`;
  return `'${text.slice(0, max)}…' (${groupDigits(text.length)} characters)`;
}

/** 4194304 → "4,194,304" (toLocaleString is slow, and depends on the platform's ICU). */
export function groupDigits(n: number): string {
  const digits = String(Math.trunc(n));
  if (digits.length <= 3 || !/^\d+$/.test(digits)) return digits;
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}
