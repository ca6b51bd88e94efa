/**
 * source → { ast, diagnostics }: lexing, the nesting guard and the one
 * reused parser instance. Never throws.
 */

import type { IToken } from 'chevrotain';
import { EMPTY_SPAN, type Program } from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { lex } from './lexer.js';
import { findTooDeep, MAX_NESTING } from './nesting.js';
import { diagnosticAt, diagnosticAtToken, endOfInput, recognitionDiagnostic, type EndOfInput } from './parse-errors.js';
import { SpellParser } from './parser.js';

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

export function parse(source: string): ParseResult {
  const text = typeof source === 'string' ? source : String(source);
  const end = endOfInput(text);
  const lexed = lex(text);
  const diagnostics = [...lexed.diagnostics];
  const tooDeep = findTooDeep(lexed.tokens);
  if (tooDeep) {
    diagnostics.push(diagnosticAtToken(`Too much nesting (the limit is ${MAX_NESTING}).`, tooDeep, end));
    return { ast: emptyProgram(end), diagnostics: sortDiagnostics(diagnostics) };
  }
  const parsed = parseTokens(lexed.tokens, end);
  diagnostics.push(...parsed.diagnostics);
  return { ast: parsed.ast, diagnostics: sortDiagnostics(diagnostics) };
}

/** Parse already-lexed tokens. Deep recursion becomes a diagnostic, never an exception. */
export function parseTokens(tokens: IToken[], end: EndOfInput): ParseResult {
  const p = parser();
  p.input = tokens;
  try {
    p.program();
  } catch (error) {
    const where = p.currentToken();
    p.input = [];
    const message = error instanceof RangeError ? 'Program too deeply nested.' : 'Internal parser error.';
    return { ast: emptyProgram(end), diagnostics: [diagnosticAtToken(message, where, end)] };
  }
  const diagnostics: Diagnostic[] = [];
  for (const error of p.errors) diagnostics.push(recognitionDiagnostic(error, end));
  for (const problem of p.problems) diagnostics.push(diagnosticAtToken(problem.message, problem.token, end));
  const body = p.topLevel;
  p.input = []; // drop references to this file's tokens
  return {
    ast: { kind: 'Program', body, loc: { ...EMPTY_SPAN, endLine: end.line, endColumn: end.column, end: end.offset } },
    diagnostics: dedupe(diagnostics),
  };
}

function emptyProgram(end: EndOfInput): Program {
  return { kind: 'Program', body: [], loc: { ...EMPTY_SPAN, endLine: end.line, endColumn: end.column, end: end.offset } };
}

/** Recovery can report the same token twice; one message per position is enough. */
function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.line}:${d.column}:${d.token === null ? 'end' : ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
}

export { diagnosticAt };
