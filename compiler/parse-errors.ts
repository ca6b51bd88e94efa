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

/**
 * A missing ';' is found at the next token, often on a later line; an editor
 * should point where the ';' belongs: right after the token before it. The
 * clox format still names the line of the token found (`cloxLine`), as clox
 * does. Runs after clox's panic-mode filter, which reasons in clox positions.
 */
export function pointAtMissingSemicolons(diagnostics: Diagnostic[], tokens: readonly IToken[]): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.severity !== 'error' || d.token === '' || !d.message.startsWith("Expect ';'")) return d;
    const previous = tokenBefore(tokens, d);
    if (previous === undefined) return d;
    const after = tokenSpan(previous);
    if (after.endLine >= d.line) return d;
    return { ...d, line: after.endLine, column: after.endColumn, endLine: after.endLine, endColumn: after.endColumn + 1, cloxLine: d.line };
  });
}

/** The last token that starts before `d` ("at end": the last token). */
function tokenBefore(tokens: readonly IToken[], d: Diagnostic): IToken | undefined {
  if (d.token === null) return tokens[tokens.length - 1];
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = tokens[mid]!;
    const before = (t.startLine ?? 1) < d.line || ((t.startLine ?? 1) === d.line && (t.startColumn ?? 1) < d.column);
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return tokens[lo - 1];
}
