/**
 * Lexing template strings: `` `The ${breed} hits you for ${dmg}!` ``.
 *
 * A template is read as JavaScript's lexer reads one: a head
 * (`` `The ${ ``), the tokens of an expression, a middle (`` } hits you for ${ ``),
 * more expression tokens, and a tail (`` }!` ``). A `}` closes a
 * substitution only when every `{` opened inside it (a map literal, say) is
 * closed, so the matchers below keep, per token stream, a stack of the
 * brace depth inside each open substitution. The stack is rebuilt from the
 * tokens already matched, incrementally, so the lexer itself stays
 * stateless and reusable.
 *
 * Template text is taken as written (no escapes, as Lox strings have none):
 * it cannot contain a backtick, and `${` always opens a substitution.
 */

import type { CustomPatternMatcherFunc, IToken, TokenType } from 'chevrotain';

/** Text of a template: anything but a backtick or the `${` that opens a substitution. */
const TEXT = '(?:[^`$]|\\$(?!\\{))*';

export const TEMPLATE_STRING = new RegExp('`' + TEXT + '`');
export const TEMPLATE_HEAD = new RegExp('`' + TEXT + '\\$\\{');
/**
 * A template whose closing backtick never comes: tried after the two above,
 * so when it matches, the text ran to the end of the file.
 */
export const UNTERMINATED_TEMPLATE = new RegExp('`' + TEXT);

const MIDDLE = new RegExp('\\}' + TEXT + '\\$\\{', 'y');
const TAIL = new RegExp('\\}' + TEXT + '`', 'y');
const UNTERMINATED_REST = new RegExp('\\}' + TEXT, 'y');

/** The token types the nesting state depends on (set once tokens.ts has created them). */
export interface TemplateTokenTypes {
  head: TokenType;
  middle: TokenType;
  tail: TokenType;
  leftBrace: TokenType;
  rightBrace: TokenType;
}

let types: TemplateTokenTypes | null = null;

export function registerTemplateTokenTypes(t: TemplateTokenTypes): void {
  types = t;
}

/** Nesting state of the token stream being lexed: brace depth inside each open substitution. */
let seenTokens: IToken[] | null = null;
let seenCount = 0;
let depths: number[] = [];

/**
 * Forget the tokens of the last text lexed (lex() calls it when done): held
 * here, a whole file's tokens (~70 MB for 1 MB of source) outlived the
 * analysis that made them, until the next text with a `}` was lexed.
 */
export function forgetLexedTokens(): void {
  seenTokens = null;
  seenCount = 0;
  depths = [];
}

function closesSubstitution(matched: IToken[]): boolean {
  if (matched !== seenTokens || matched.length < seenCount) {
    seenTokens = matched;
    seenCount = 0;
    depths = [];
  }
  const t = types!;
  for (; seenCount < matched.length; seenCount++) {
    const type = matched[seenCount]!.tokenType;
    if (type === t.head) depths.push(0);
    else if (type === t.tail) depths.pop();
    else if (depths.length > 0) {
      if (type === t.leftBrace) depths[depths.length - 1]!++;
      else if (type === t.rightBrace) depths[depths.length - 1]!--;
    }
  }
  return depths.length > 0 && depths[depths.length - 1] === 0;
}

function continuation(pattern: RegExp): CustomPatternMatcherFunc {
  return (text, offset, matched) => {
    if (text.charCodeAt(offset) !== 125 /* } */ || !closesSubstitution(matched as IToken[])) return null;
    pattern.lastIndex = offset;
    return pattern.exec(text);
  };
}

export const matchTemplateMiddle = continuation(MIDDLE);
export const matchTemplateTail = continuation(TAIL);
export const matchUnterminatedTemplateRest = continuation(UNTERMINATED_REST);
