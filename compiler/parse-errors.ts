/**
 * Syntax error wording and positions. Messages follow clox's compiler.c
 * ("Expect ';' after value."); most are given at each CONSUME through
 * ERR_MSG, and this provider covers what chevrotain builds by itself.
 */

import type { IParserErrorMessageProvider, IRecognitionException, IToken, TokenType } from 'chevrotain';
import type { SourceSpan } from './ast.js';
import type { Diagnostic } from './diagnostics.js';

function describe(type: TokenType): string {
  const pattern = type.PATTERN;
  return typeof pattern === 'string' ? `'${pattern}'` : type.name;
}

export const ERROR_MESSAGES: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected }) => `Expect ${describe(expected)}.`,
  buildNotAllInputParsedMessage: () => 'Expect expression.',
  buildNoViableAltMessage: ({ customUserDescription }) => customUserDescription ?? 'Expect expression.',
  buildEarlyExitMessage: ({ customUserDescription }) => customUserDescription ?? 'Expect expression.',
};

/** Where the file ends: clox reports "at end" on the line of its EOF token. */
export interface EndOfInput {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export function endOfInput(source: string): EndOfInput {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: source.length - lineStart + 1, offset: source.length };
}

export function isRealToken(tok: IToken | undefined): tok is IToken {
  return tok !== undefined && Number.isFinite(tok.startOffset) && tok.startOffset >= 0 && tok.tokenType.name !== 'EOF';
}

export function tokenSpan(tok: IToken): SourceSpan {
  return {
    line: tok.startLine ?? 1,
    column: tok.startColumn ?? 1,
    endLine: tok.endLine ?? tok.startLine ?? 1,
    endColumn: (tok.endColumn ?? tok.startColumn ?? 0) + 1,
    start: tok.startOffset,
    end: (tok.endOffset ?? tok.startOffset) + 1,
  };
}

export function endSpan(end: EndOfInput): SourceSpan {
  return { line: end.line, column: end.column, endLine: end.line, endColumn: end.column, start: end.offset, end: end.offset };
}

export function diagnosticAt(
  severity: Diagnostic['severity'],
  message: string,
  span: SourceSpan,
  token: string | null,
): Diagnostic {
  return {
    severity,
    message,
    line: span.line,
    column: span.column,
    endLine: span.endLine,
    endColumn: span.endColumn,
    token,
  };
}

/** A diagnostic at a token, or "at end" for EOF and tokens invented by recovery. */
export function diagnosticAtToken(message: string, tok: IToken | undefined, end: EndOfInput): Diagnostic {
  if (!isRealToken(tok)) return diagnosticAt('error', message, endSpan(end), null);
  return diagnosticAt('error', message, tokenSpan(tok), tok.image);
}

export function recognitionDiagnostic(error: IRecognitionException, end: EndOfInput): Diagnostic {
  return diagnosticAtToken(error.message, error.token, end);
}
