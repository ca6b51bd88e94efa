/**
 * source → { ast, diagnostics }: lexing, the nesting guard and the one
 * reused parser instance. Never throws.
 */

import type { IToken } from 'chevrotain';
import { EMPTY_SPAN, type Program } from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { lex, type LexResult } from './lexer.js';
import { findTooDeep, MAX_NESTING } from './nesting.js';
import { diagnosticAtToken, endOfInput, pointAtMissingSemicolons, recognitionDiagnostic, type EndOfInput } from './parse-errors.js';
import { SpellParser } from './parser.js';
import { suppressCascades } from './cascade.js';

export interface ParseResult {
  readonly ast: Program;
  readonly diagnostics: Diagnostic[];
}

let sharedParser: SpellParser | null = null;

/** The one parser: building it analyses the grammar, which costs far more than a parse. */
function parser(): SpellParser {
  sharedParser ??= new SpellParser();
  return sharedParser;
}

/** Source → AST and syntax diagnostics (one per mistake, as clox reports them). Never throws. */
export function parse(source: string): ParseResult {
  const parsed = parseSource(source);
  return { ast: parsed.ast, diagnostics: parsed.finish(parsed.diagnostics) };
}

export interface SourceParse extends ParseResult {
  readonly end: EndOfInput;
  /** The tokens the parser read, and the comments beside them. */
  readonly lexed: LexResult;
  /** Sort, drop cascading errors (clox's panic mode), then point a missing ';' after the token that lacks it. */
  finish(diagnostics: Diagnostic[]): Diagnostic[];
}

/**
 * What parses a file's tokens: parseTokens, or an IncrementalParser
 * (compiler/incremental-parse.ts) that reuses the statements of the last
 * version an edit left untouched.
 */
export interface TokenParser {
  parseTokens(tokens: IToken[], end: EndOfInput, source: string): ParseResult;
}

/** Parse, keeping what compile() needs to report later passes' errors the same way. */
export function parseSource(source: string, tokenParser?: TokenParser): SourceParse {
  const text = typeof source === 'string' ? source : String(source);
  const end = endOfInput(text);
  const lexed = lex(text);
  const diagnostics = [...lexed.diagnostics];
  const finish = (all: Diagnostic[]) => pointAtMissingSemicolons(suppressCascades(sortDiagnostics(all), lexed.tokens, end), lexed.tokens);
  const tooDeep = findTooDeep(lexed.tokens);
  if (tooDeep) {
    diagnostics.push(diagnosticAtToken(`Too much nesting (the limit is ${MAX_NESTING}).`, tooDeep, end));
    return { ast: emptyProgram(end), diagnostics, end, finish, lexed };
  }
  const parsed = tokenParser ? tokenParser.parseTokens(lexed.tokens, end, text) : parseTokens(lexed.tokens, end);
  diagnostics.push(...parsed.diagnostics);
  return { ast: parsed.ast, diagnostics, end, finish, lexed };
}

/** Parse already-lexed tokens. Deep recursion becomes a diagnostic, never an exception. */
export function parseTokens(tokens: IToken[], end: EndOfInput): ParseResult {
  const p = parser();
  p.input = tokens;
  // chevrotain signals syntax errors with exceptions it catches itself; their
  // JS stack traces are never shown, and capturing them dominated the time
  // spent on files full of errors.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    p.program();
  } catch (error) {
    const where = p.currentToken();
    p.input = [];
    const message = error instanceof RangeError ? 'Program too deeply nested.' : 'Internal parser error.';
    return { ast: emptyProgram(end), diagnostics: [diagnosticAtToken(message, where, end)] };
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const diagnostics: Diagnostic[] = [];
  for (const error of p.errors) diagnostics.push(recognitionDiagnostic(error, end));
  for (const problem of p.problems) diagnostics.push(diagnosticAtToken(problem.message, problem.token, end));
  const body = p.topLevel;
  p.input = []; // drop references to this file's tokens
  return {
    ast: { kind: 'Program', body, loc: { ...EMPTY_SPAN, endLine: end.line, endColumn: end.column, end: end.offset } },
    diagnostics,
  };
}

export function emptyProgram(end: EndOfInput): Program {
  return { kind: 'Program', body: [], loc: { ...EMPTY_SPAN, endLine: end.line, endColumn: end.column, end: end.offset } };
}

/** By position; "at end" last; stable, so the parser's message wins over a later pass's at the same token. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const atEnd = (d: Diagnostic) => (d.token === null ? 1 : 0);
  return diagnostics.sort((a, b) => atEnd(a) - atEnd(b) || a.line - b.line || a.column - b.column);
}

