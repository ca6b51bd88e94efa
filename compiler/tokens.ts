/**
 * Token types, defined once (as acorn's tokentype.js): the lexer, the parser
 * and the tools read this file. The words, symbols and patterns themselves
 * come from lexicon.ts, which the editors' highlighters read too.
 *
 * Keywords use `longer_alt: Identifier` so `classy` stays an identifier.
 * `in` and `spell` are *contextual* keywords: their token types belong to the
 * Identifier category, so anywhere the grammar wants a name they are accepted
 * as one (`var spell = 1; print in;` keeps working, as Lox requires), and only
 * the `for (x in …)` and top-level `spell name(…)` productions look for them.
 */

import type { TokenType } from 'chevrotain';
import { createToken, Lexer } from './chevrotain.js';
import {
  escapeRegExp,
  IDENTIFIER_PATTERN,
  LINE_COMMENT,
  NUMBER_PATTERN,
  OPERATORS,
  PUNCTUATION,
  type Keyword,
  type OperatorName,
  type PunctuationName,
} from './lexicon.js';
import {
  matchTemplateMiddle,
  matchTemplateTail,
  matchUnterminatedTemplateRest,
  registerTemplateTokenTypes,
  TEMPLATE_HEAD,
  TEMPLATE_STRING,
  UNTERMINATED_TEMPLATE,
} from './template-lexing.js';

/** Broad kinds, for highlighters and `tokenize()` consumers. */
export type TokenKind =
  | 'keyword'
  | 'identifier'
  | 'number'
  | 'string'
  | 'punctuation'
  | 'operator'
  | 'comment'
  | 'whitespace'
  | 'error';

const kindOf = new Map<TokenType, TokenKind>();

type TokenConfig = Parameters<typeof createToken>[0];

/** Every token the parser can see belongs to this category: panic-mode recovery skips "any token". */
export const AnyToken = createToken({ name: 'AnyToken', pattern: Lexer.NA });
/**
 * Tokens that cannot begin a declaration (a closing '}' aside, which ends a
 * block). Finding one where a statement should start is clox's
 * "Expect expression.", after which the parser skips to the next statement.
 */
export const StrayToken = createToken({ name: 'StrayToken', pattern: Lexer.NA });
/** `!` and `-`. */
export const UnaryOperator = createToken({ name: 'UnaryOperator', pattern: Lexer.NA });
/** Every infix operator from `or` to `%`; the parser groups them by precedenceOf(). */
export const BinaryOperator = createToken({ name: 'BinaryOperator', pattern: Lexer.NA });

function token(kind: TokenKind, config: TokenConfig, stray = false): TokenType {
  const categories = [...((config.categories as TokenType[] | undefined) ?? []), AnyToken];
  if (stray) categories.push(StrayToken);
  const type = createToken({ ...config, categories });
  kindOf.set(type, kind);
  return type;
}

export function tokenKind(type: TokenType): TokenKind {
  return kindOf.get(type) ?? 'error';
}

// ---- trivia -------------------------------------------------------------
export const WhiteSpace = token('whitespace', {
  name: 'WhiteSpace',
  pattern: /[ \t\r\n]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
export const Comment = token('comment', {
  name: 'Comment',
  pattern: new RegExp(escapeRegExp(LINE_COMMENT) + '[^\\n]*'),
  line_breaks: false,
  // Kept in a group (not skipped) so tools can highlight comments; the parser never sees them.
  group: 'comments',
});

// ---- literals and names -------------------------------------------------
// `line_breaks: false` where a pattern cannot span lines: stated, chevrotain need not parse the regexp to find out at every start.
export const Identifier = token('identifier', { name: 'Identifier', pattern: new RegExp(IDENTIFIER_PATTERN), line_breaks: false });
export const NumberLiteral = token('number', { name: 'Number', pattern: new RegExp(NUMBER_PATTERN), line_breaks: false });
export const StringLiteral = token('string', {
  name: 'String',
  pattern: /"[^"]*"/,
  line_breaks: true,
  start_chars_hint: ['"'],
});

/** Template strings (compiler/template-lexing.ts): `` `text` ``, or head, expression, middle …, tail. */
export const TemplateString = token('string', {
  name: 'TemplateString',
  pattern: TEMPLATE_STRING,
  line_breaks: true,
  start_chars_hint: ['`'],
});
export const TemplateHead = token('string', {
  name: 'TemplateHead',
  pattern: TEMPLATE_HEAD,
  line_breaks: true,
  start_chars_hint: ['`'],
});
export const TemplateMiddle = token(
  'string',
  { name: 'TemplateMiddle', pattern: { exec: matchTemplateMiddle }, line_breaks: true, start_chars_hint: ['}'] },
  true,
);
export const TemplateTail = token(
  'string',
  { name: 'TemplateTail', pattern: { exec: matchTemplateTail }, line_breaks: true, start_chars_hint: ['}'] },
  true,
);

// ---- keywords ------------------------------------------------------------
function keyword(word: Keyword, extra: Partial<TokenConfig> = {}, stray = false): TokenType {
  return token(
    'keyword',
    {
    name: word[0]!.toUpperCase() + word.slice(1),
    pattern: new RegExp(word),
    longer_alt: Identifier,
      line_breaks: false,
      start_chars_hint: [word[0]!],
      ...extra,
    },
    stray,
  );
}

export const And = keyword('and', { categories: [BinaryOperator] }, true);
export const Class = keyword('class');
export const Else = keyword('else', {}, true);
export const False = keyword('false');
export const For = keyword('for');
export const Fun = keyword('fun');
export const If = keyword('if');
export const Nil = keyword('nil');
export const Or = keyword('or', { categories: [BinaryOperator] }, true);
export const Print = keyword('print');
export const Return = keyword('return');
export const Super = keyword('super');
export const This = keyword('this');
export const True = keyword('true');
export const Var = keyword('var');
export const While = keyword('while');
/** Contextual: an identifier everywhere except `for (x in …)`. */
export const In = keyword('in', { categories: [Identifier] });
/** Contextual: an identifier everywhere except a top-level `spell name(…)`. */
export const Spell = keyword('spell', { categories: [Identifier] });

// ---- punctuation -----------------------------------------------------------
const punct = (name: PunctuationName, stray: boolean, categories: TokenType[] = []) =>
  token('punctuation', { name, pattern: PUNCTUATION[name], categories }, stray);

/** `(`, `.` and `[`: what may follow an operand as a call, property or index suffix. */
export const CallSuffixStart = createToken({ name: 'CallSuffixStart', pattern: Lexer.NA });

export const LeftParen = punct('LeftParen', false, [CallSuffixStart]);
export const RightParen = punct('RightParen', true);
export const LeftBrace = punct('LeftBrace', false);
export const RightBrace = punct('RightBrace', false);
export const LeftBracket = punct('LeftBracket', false, [CallSuffixStart]);
export const RightBracket = punct('RightBracket', true);
export const Comma = punct('Comma', true);
/** Between a key and its value in a map literal. */
export const Colon = punct('Colon', true);
export const Dot = punct('Dot', true, [CallSuffixStart]);
export const Semicolon = punct('Semicolon', true);

// ---- operator categories: one CONSUME per precedence level ----------------
export const AssignOperator = createToken({ name: 'AssignOperator', pattern: Lexer.NA });
export const EqualityOperator = createToken({ name: 'EqualityOperator', pattern: Lexer.NA, categories: [BinaryOperator] });
export const ComparisonOperator = createToken({ name: 'ComparisonOperator', pattern: Lexer.NA, categories: [BinaryOperator] });
export const AdditiveOperator = createToken({ name: 'AdditiveOperator', pattern: Lexer.NA, categories: [BinaryOperator] });
export const MultiplicativeOperator = createToken({ name: 'MultiplicativeOperator', pattern: Lexer.NA, categories: [BinaryOperator] });

const operator = (name: OperatorName, ...categories: TokenType[]) =>
  token('operator', { name, pattern: OPERATORS[name].text, categories }, !categories.includes(UnaryOperator));

// Longer operators first: chevrotain takes the first pattern that matches.
export const PlusEqual = operator('PlusEqual', AssignOperator);
export const MinusEqual = operator('MinusEqual', AssignOperator);
export const StarEqual = operator('StarEqual', AssignOperator);
export const SlashEqual = operator('SlashEqual', AssignOperator);
export const PercentEqual = operator('PercentEqual', AssignOperator);
export const BangEqual = operator('BangEqual', EqualityOperator);
export const EqualEqual = operator('EqualEqual', EqualityOperator);
export const GreaterEqual = operator('GreaterEqual', ComparisonOperator);
export const LessEqual = operator('LessEqual', ComparisonOperator);
export const Greater = operator('Greater', ComparisonOperator);
export const Less = operator('Less', ComparisonOperator);
export const Equal = operator('Equal', AssignOperator);
export const Minus = operator('Minus', AdditiveOperator, UnaryOperator);
export const Plus = operator('Plus', AdditiveOperator);
export const Star = operator('Star', MultiplicativeOperator);
export const Slash = operator('Slash', MultiplicativeOperator);
export const Percent = operator('Percent', MultiplicativeOperator);
export const Bang = operator('Bang', UnaryOperator);

/** The book's precedence table for infix operators: higher binds tighter. */
export function precedenceOf(type: TokenType): number {
  return PRECEDENCE.get(type) ?? 0;
}

const PRECEDENCE = new Map<TokenType, number>([
  [Or, 1],
  [And, 2],
  ...[BangEqual, EqualEqual].map((t) => [t, 3] as const),
  ...[Greater, GreaterEqual, Less, LessEqual].map((t) => [t, 4] as const),
  ...[Minus, Plus].map((t) => [t, 5] as const),
  ...[Slash, Star, Percent].map((t) => [t, 6] as const),
]);

/** The same table by operator text (`'+'`, `'and'` …), for passes that read the tree. */
export function precedenceOfOperator(operator: string): number {
  return PRECEDENCE_BY_TEXT.get(operator) ?? 0;
}

const PRECEDENCE_BY_TEXT = new Map(
  [...PRECEDENCE].map(([type, precedence]) => {
    const pattern = type.PATTERN;
    return [typeof pattern === 'string' ? pattern : (pattern as RegExp).source, precedence] as const;
  }),
);

// ---- lexical errors: the lexer itself never fails --------------------------
/** A string with no closing quote runs to the end of the file (clox: "Unterminated string."). */
export const UnterminatedString = token('error', {
  name: 'UnterminatedString',
  pattern: /"[^"]*/,
  line_breaks: true,
  start_chars_hint: ['"'],
});
/** A template string with no closing backtick (from its start, or from a substitution's `}`). */
export const UnterminatedTemplate = token('error', {
  name: 'UnterminatedTemplate',
  pattern: UNTERMINATED_TEMPLATE,
  line_breaks: true,
  start_chars_hint: ['`'],
});
export const UnterminatedTemplateRest = token('error', {
  name: 'UnterminatedTemplateRest',
  pattern: { exec: matchUnterminatedTemplateRest },
  line_breaks: true,
  start_chars_hint: ['}'],
});
/** Any other single character (clox: "Unexpected character."). */
export const UnexpectedCharacter = token('error', {
  name: 'UnexpectedCharacter',
  // Any one UTF-16 code unit, as /[^]/ — written as a range because chevrotain's first-character
  // analysis handles a range in a few hundred steps (it cannot analyse a complement set at all), where a
  // hint listing all 65,536 code units cost every CLI start a loop over them twice (made, then read).
  pattern: /[\u0000-\uffff]/,
  line_breaks: true,
});

/** Lexer order matters: trivia, then literals, keywords, operators, and the catch-alls last. */
export const ALL_TOKENS: readonly TokenType[] = [
  WhiteSpace,
  Comment,
  NumberLiteral,
  StringLiteral,
  TemplateString,
  TemplateHead,
  UnterminatedTemplate,
  TemplateMiddle,
  TemplateTail,
  UnterminatedTemplateRest,
  And,
  Class,
  Else,
  False,
  For,
  Fun,
  If,
  In,
  Nil,
  Or,
  Print,
  Return,
  Spell,
  Super,
  This,
  True,
  Var,
  While,
  Identifier,
  LeftParen,
  RightParen,
  LeftBrace,
  RightBrace,
  LeftBracket,
  RightBracket,
  Comma,
  Colon,
  Dot,
  Semicolon,
  PlusEqual,
  MinusEqual,
  StarEqual,
  SlashEqual,
  PercentEqual,
  BangEqual,
  EqualEqual,
  GreaterEqual,
  LessEqual,
  Greater,
  Less,
  Equal,
  Minus,
  Plus,
  Star,
  Slash,
  Percent,
  Bang,
  AssignOperator,
  EqualityOperator,
  ComparisonOperator,
  AdditiveOperator,
  MultiplicativeOperator,
  UnaryOperator,
  BinaryOperator,
  CallSuffixStart,
  StrayToken,
  AnyToken,
  UnterminatedString,
  UnexpectedCharacter,
];

registerTemplateTokenTypes({
  head: TemplateHead,
  middle: TemplateMiddle,
  tail: TemplateTail,
  leftBrace: LeftBrace,
  rightBrace: RightBrace,
});

/** Tokens that begin a statement: where clox's panic mode stops skipping (its synchronize()). */
export const STATEMENT_KEYWORDS: ReadonlySet<TokenType> = new Set([Class, Fun, Var, For, If, While, Print, Return]);

/** Reserved words, for highlighters and completion (contextual ones included). */
export { KEYWORDS } from './lexicon.js';
