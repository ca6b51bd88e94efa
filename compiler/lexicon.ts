/**
 * The words and symbols of Cantrip as plain data, defined once. The lexer's
 * token types (tokens.ts) are created from these lists, the playground's
 * Monarch highlighting reads them, and the VS Code extension's TextMate
 * grammar is generated from them (editors/vscode/grammar/) — so a keyword or
 * an operator added here is lexed, completed and highlighted everywhere.
 *
 * Patterns are regular-expression *source text* in the subset that
 * JavaScript and Oniguruma (TextMate's engine) read alike.
 */

/** What a keyword does, so highlighters can colour declarations, constants and control flow apart. */
export type KeywordRole = 'control' | 'declaration' | 'constant' | 'operator' | 'self' | 'statement';

/**
 * Lox's reserved words plus the two contextual spell keywords, `in` and
 * `spell` (identifiers everywhere except `for (x in …)` and a top-level
 * `spell name(…)`; see tokens.ts).
 */
export const KEYWORD_ROLES = {
  and: 'operator',
  class: 'declaration',
  else: 'control',
  false: 'constant',
  for: 'control',
  fun: 'declaration',
  if: 'control',
  in: 'control',
  nil: 'constant',
  or: 'operator',
  print: 'statement',
  return: 'control',
  spell: 'declaration',
  super: 'self',
  this: 'self',
  true: 'constant',
  var: 'declaration',
  while: 'control',
} as const satisfies Record<string, KeywordRole>;

export type Keyword = keyof typeof KEYWORD_ROLES;

/** Usable as names in plain Lox programs; keywords only where the spell grammar asks for them. */
export const CONTEXTUAL_KEYWORDS: readonly Keyword[] = ['in', 'spell'];

/** Every keyword, contextual ones included, in alphabetical order. */
export const KEYWORDS: readonly Keyword[] = Object.keys(KEYWORD_ROLES).sort() as Keyword[];

/** Lox's own reserved words (KEYWORDS less the contextual ones). */
export const LOX_KEYWORDS: readonly Keyword[] = KEYWORDS.filter((k) => !CONTEXTUAL_KEYWORDS.includes(k));

/** What an operator does, for highlighters. */
export type OperatorRole = 'assignment' | 'comparison' | 'arithmetic' | 'logical';

/** Symbolic operators by token name: the lexer creates one token type per entry. */
export const OPERATORS = {
  PlusEqual: { text: '+=', role: 'assignment' },
  MinusEqual: { text: '-=', role: 'assignment' },
  StarEqual: { text: '*=', role: 'assignment' },
  SlashEqual: { text: '/=', role: 'assignment' },
  PercentEqual: { text: '%=', role: 'assignment' },
  BangEqual: { text: '!=', role: 'comparison' },
  EqualEqual: { text: '==', role: 'comparison' },
  GreaterEqual: { text: '>=', role: 'comparison' },
  LessEqual: { text: '<=', role: 'comparison' },
  Greater: { text: '>', role: 'comparison' },
  Less: { text: '<', role: 'comparison' },
  Equal: { text: '=', role: 'assignment' },
  Minus: { text: '-', role: 'arithmetic' },
  Plus: { text: '+', role: 'arithmetic' },
  Star: { text: '*', role: 'arithmetic' },
  Slash: { text: '/', role: 'arithmetic' },
  Percent: { text: '%', role: 'arithmetic' },
  Bang: { text: '!', role: 'logical' },
} as const satisfies Record<string, { text: string; role: OperatorRole }>;

export type OperatorName = keyof typeof OPERATORS;

/** Brackets and separators by token name. */
export const PUNCTUATION = {
  LeftParen: '(',
  RightParen: ')',
  LeftBrace: '{',
  RightBrace: '}',
  LeftBracket: '[',
  RightBracket: ']',
  Comma: ',',
  Colon: ':',
  Dot: '.',
  Semicolon: ';',
} as const;

export type PunctuationName = keyof typeof PUNCTUATION;

/** Matching pairs, outermost kinds first: for editors' bracket matching, auto-closing and folding. */
export const BRACKET_PAIRS: readonly (readonly [string, string])[] = [
  [PUNCTUATION.LeftBrace, PUNCTUATION.RightBrace],
  [PUNCTUATION.LeftBracket, PUNCTUATION.RightBracket],
  [PUNCTUATION.LeftParen, PUNCTUATION.RightParen],
];

/** A comment runs from this marker to the end of the line (Lox has no block comments). */
export const LINE_COMMENT = '//';

export const IDENTIFIER_PATTERN = '[A-Za-z_][A-Za-z0-9_]*';
/** No exponent, no leading or trailing dot: `.5` is a dot and a 5, as in Lox. */
export const NUMBER_PATTERN = '[0-9]+(?:\\.[0-9]+)?';

/** A string: `"…"`, no escapes, may span lines (Lox). */
export const STRING_QUOTE = '"';
/** A template string: `` `…${expr}…` ``, no escapes; `${` always opens a substitution (template-lexing.ts). */
export const TEMPLATE_QUOTE = '`';
export const SUBSTITUTION_OPEN = '${';
export const SUBSTITUTION_CLOSE = '}';

/** `text` with every regular-expression metacharacter escaped (safe in JavaScript and Oniguruma). */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** The operators' texts, longest first, so an alternation tries `+=` before `+`. */
export function operatorTexts(): string[] {
  return Object.values(OPERATORS)
    .map((o) => o.text as string)
    .sort((a, b) => b.length - a.length);
}
