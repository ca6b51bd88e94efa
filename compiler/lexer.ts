/**
 * The lexer: source text → tokens. It never fails: characters no rule
 * matches and strings with no closing quote become error tokens, which are
 * turned into clox's diagnostics here and left out of the parser's input.
 */

import type { IToken, Lexer as ChevrotainLexer, TokenType } from 'chevrotain';
import { Lexer } from './chevrotain.js';
import type { Diagnostic } from './diagnostics.js';
import { forgetLexedTokens } from './template-lexing.js';
import {
  ALL_TOKENS,
  Comment,
  tokenKind,
  UnexpectedCharacter,
  UnterminatedString,
  UnterminatedTemplate,
  UnterminatedTemplateRest,
  type TokenKind,
} from './tokens.js';

const ERROR_TOKENS: ReadonlySet<TokenType> = new Set([UnexpectedCharacter, UnterminatedString, UnterminatedTemplate, UnterminatedTemplateRest]);

/**
 * `validate` runs chevrotain's checks of the token definitions (unreachable
 * or empty patterns…). They cost about half of the lexer's construction,
 * paid by every CLI start, so production skips them and a unit test keeps
 * them passing (as for the parser).
 */
export function createLexer(options: { validate?: boolean } = {}): ChevrotainLexer {
  return new Lexer(ALL_TOKENS as TokenType[], {
    positionTracking: 'full',
    // clox counts lines by '\n' only.
    lineTerminatorsPattern: /\n/g,
    lineTerminatorCharacters: ['\n'],
    ensureOptimizations: true,
    skipValidations: !options.validate,
  });
}

const lexer = createLexer();

export interface LexResult {
  /** What the parser reads: no trivia, no error tokens. */
  readonly tokens: IToken[];
  readonly comments: IToken[];
  readonly errorTokens: IToken[];
  readonly diagnostics: Diagnostic[];
}

export function lex(source: string): LexResult {
  const result = lexer.tokenize(source);
  forgetLexedTokens();
  const tokens: IToken[] = [];
  const errorTokens: IToken[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const tok of result.tokens) {
    const type = tok.tokenType;
    if (ERROR_TOKENS.has(type)) {
      errorTokens.push(tok);
      diagnostics.push(lexicalDiagnostic(tok));
    } else {
      tokens.push(tok);
    }
  }
  // The catch-all tokens mean chevrotain has nothing left to complain about;
  // anything it does report is still turned into a diagnostic, never thrown.
  for (const err of result.errors) {
    diagnostics.push({
      severity: 'error',
      message: 'Unexpected character.',
      line: err.line ?? 1,
      column: err.column ?? 1,
      endLine: err.line ?? 1,
      endColumn: (err.column ?? 1) + Math.max(1, err.length),
      token: '',
    });
  }
  const comments = (result.groups['comments'] as IToken[] | undefined) ?? [];
  return { tokens, comments, errorTokens, diagnostics };
}

function lexicalDiagnostic(tok: IToken): Diagnostic {
  const unterminated = tok.tokenType !== UnexpectedCharacter;
  // clox reports an unterminated string on the line where the file ends
  // (after every newline the string swallowed).
  const startLine = tok.startLine ?? 1;
  const line = unterminated ? startLine + countNewlines(tok.image) : startLine;
  return {
    severity: 'error',
    message: !unterminated ? 'Unexpected character.' : tok.tokenType === UnterminatedString ? 'Unterminated string.' : 'Unterminated template string.',
    line,
    column: tok.startColumn ?? 1,
    endLine: tok.endLine ?? line,
    endColumn: (tok.endColumn ?? tok.startColumn ?? 1) + 1,
    token: '',
  };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** A token as tools see it (playground highlighting, `cantrip` debug output). */
export interface TokenInfo {
  readonly kind: TokenKind;
  /** The token type's name, e.g. 'Identifier', 'LeftParen', 'Var'. */
  readonly type: string;
  readonly image: string;
  /** 0-based offsets: [start, end). */
  readonly start: number;
  readonly end: number;
  /** 1-based; endColumn is the column after the last character. */
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** Every token of the source, comments and error tokens included, in source order. Never throws. */
export function tokenize(source: string): TokenInfo[] {
  const { tokens, comments, errorTokens } = lex(String(source));
  const all = [...tokens, ...comments, ...errorTokens].sort((a, b) => a.startOffset - b.startOffset);
  return all.map(toTokenInfo);
}

function toTokenInfo(tok: IToken): TokenInfo {
  return {
    kind: tok.tokenType === Comment ? 'comment' : tokenKind(tok.tokenType),
    type: tok.tokenType.name,
    image: tok.image,
    start: tok.startOffset,
    end: (tok.endOffset ?? tok.startOffset) + 1,
    line: tok.startLine ?? 1,
    column: tok.startColumn ?? 1,
    endLine: tok.endLine ?? tok.startLine ?? 1,
    endColumn: (tok.endColumn ?? tok.startColumn ?? 1) + 1,
  };
}
