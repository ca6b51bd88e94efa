/**
 * The words of the language, for highlighting: Lox's reserved words plus the
 * two contextual spell keywords. (Their docs, for hover and completion, are
 * the language service's: compiler/service/words.ts.)
 */

export const LOX_KEYWORDS = [
  'and', 'class', 'else', 'false', 'for', 'fun', 'if', 'nil', 'or',
  'print', 'return', 'super', 'this', 'true', 'var', 'while',
] as const;

/** Contextual: still usable as names in plain Lox programs. */
export const SPELL_KEYWORDS = ['spell', 'in'] as const;

export const ALL_KEYWORDS: readonly string[] = [...LOX_KEYWORDS, ...SPELL_KEYWORDS];
