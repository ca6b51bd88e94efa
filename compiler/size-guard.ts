/**
 * The size guard. Tokens, syntax nodes and code grow with the number of
 * tokens, not the number of bytes: 10 MB of `print 1 + 2 * 3;` is 4 million
 * tokens and took 2.5 GB to lex and parse — enough to crash a host with a
 * smaller heap, which a sandbox must never allow. Before lexing, one linear
 * pass over the characters counts an upper bound of the tokens (comments and
 * string contents are free), and a program past MAX_TOKENS gets one clean
 * diagnostic instead. A 10 MB file that is mostly comments still compiles.
 */

/** Most tokens a program may have: about 250,000 lines of ordinary code, far beyond any spell. */
export const MAX_TOKENS = 1_000_000;

const enum Kind {
  Space,
  /** Letters, digits and '_' after a letter or '_': one identifier or keyword. */
  Name,
  /** Digits not part of a name: one number (a letter after them starts a name). */
  Digits,
  Punct,
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * An upper bound of the number of tokens the lexer will produce (a number
 * such as `1.5` counts three times, a two-character operator twice). Stops
 * counting once the limit is passed.
 */
export function estimateTokens(source: string, limit = MAX_TOKENS): number {
  let count = 0;
  let previous = Kind.Space;
  const n = source.length;
  for (let i = 0; i < n && count <= limit; i++) {
    const c = source.charCodeAt(i);
    if (c === 47 /* / */ && source.charCodeAt(i + 1) === 47) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? n : end;
      previous = Kind.Space;
      continue;
    }
    if (c === 34 /* " */) {
      const end = source.indexOf('"', i + 1);
      i = end === -1 ? n : end;
      count++;
      previous = Kind.Punct;
      continue;
    }
    // Everything but names and numbers (the '.' of `a.b` and `1.5` included, and each non-ASCII
    // character, which the lexer reports one by one) counts once.
    let kind: Kind;
    if (c === 32 || c === 9 || c === 10 || c === 13) kind = Kind.Space;
    else if (isLetter(c)) kind = Kind.Name;
    else if (c >= 48 && c <= 57) kind = previous === Kind.Name ? Kind.Name : Kind.Digits;
    else kind = Kind.Punct;
    const continuesToken = kind === previous && (kind === Kind.Name || kind === Kind.Digits);
    if (kind !== Kind.Space && !continuesToken) count++;
    previous = kind;
  }
  return count;
}

/** The diagnostic message for a program past the limit, or null when it fits. */
export function tooManyTokens(source: string): string | null {
  const estimate = estimateTokens(source);
  if (estimate <= MAX_TOKENS) return null;
  return `Program too large: more than ${MAX_TOKENS.toLocaleString('en-US')} tokens.`;
}
