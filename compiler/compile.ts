/**
 * compile(): source → Module, or diagnostics. Never throws, whatever the
 * input (binary garbage, NUL bytes, huge or deeply nested files): anything
 * unexpected becomes a diagnostic.
 */

import { CORE_HOST_FUNCTIONS } from '../vm/builtins.js';
import type { HostFunctionSpec } from '../vm/host.js';
import type { Module } from '../vm/module.js';
import type { Diagnostic } from './diagnostics.js';
import { emitModule } from './emitter.js';
import { checkEntityProperties } from './entity-property-check.js';
import { parseSource, type TokenParser } from './parse.js';
import { diagnosticAt } from './parse-errors.js';
import { resolve, type Resolution } from './resolver.js';
import type { LexResult } from './lexer.js';
import { tooManyTokens } from './size-guard.js';
import { checkStringNumberAdditions } from './string-number-check.js';
import { EMPTY_SPAN, type Program } from './ast.js';

export interface CompileOptions {
  /** For messages; default '<input>'. */
  sourceName?: string;
  /** Host functions visible to the spell; default CORE_HOST_FUNCTIONS from vm/builtins.ts. */
  hosts?: readonly HostFunctionSpec[];
  /**
   * The property names an entity can have: every loaded breed's attributes
   * plus the built-in ones (runtime: `entityPropertyNames(breeds)`). When
   * given, reading a property no breed defines from a spell's entity
   * parameter is a warning with the nearest known name.
   */
  entityProperties?: Iterable<string>;
  /** How to parse the tokens: an IncrementalParser reuses what the last version of the file parsed (editors). */
  tokenParser?: TokenParser;
}

export interface CompileResult {
  /** Null iff any diagnostic is an error (warnings never block compilation). */
  module: Module | null;
  diagnostics: Diagnostic[];
}

/**
 * What compiling found on the way, for tools that answer questions about the
 * source (the language service): the tree, where every name resolved, the
 * tokens. `resolution` is null when the source was refused before parsing.
 */
export interface CompileDetails extends CompileResult {
  readonly ast: Program;
  readonly resolution: Resolution | null;
  readonly lexed: LexResult;
}

/** Errors past this many are dropped (a binary file would otherwise report one per byte). */
export const MAX_REPORTED_ERRORS = 100;

export function compile(source: string, options: CompileOptions = {}): CompileResult {
  const { module, diagnostics } = compileWithDetails(source, options);
  return { module, diagnostics };
}

/** compile(), keeping the tree, the resolution and the tokens. Never throws. */
export function compileWithDetails(source: string, options: CompileOptions = {}): CompileDetails {
  try {
    return compileUnguarded(typeof source === 'string' ? source : String(source), options);
  } catch (error) {
    // Deep recursion the nesting guard let through (e.g. 100,000 chained `+`), or a compiler bug:
    // either way the user gets a diagnostic, never a stack trace.
    const message = error instanceof RangeError ? 'Program too deeply nested.' : 'Internal compiler error.';
    return refusedCompile(diagnosticAt('error', message, EMPTY_SPAN, ''));
  }
}

/** What compiling a source refused before parsing gives: an empty tree and one diagnostic. */
export function refusedCompile(diagnostic: Diagnostic): CompileDetails {
  const ast: Program = { kind: 'Program', body: [], loc: EMPTY_SPAN };
  return { module: null, diagnostics: [diagnostic], ast, resolution: null, lexed: { tokens: [], comments: [], errorTokens: [], diagnostics: [] } };
}

function compileUnguarded(source: string, options: CompileOptions): CompileDetails {
  const tooLarge = tooManyTokens(source);
  if (tooLarge !== null) return refusedCompile(diagnosticAt('error', tooLarge, EMPTY_SPAN, ''));
  const parsed = parseSource(source, options.tokenParser);
  const diagnostics = parsed.diagnostics;
  const hosts = options.hosts ?? CORE_HOST_FUNCTIONS;
  const resolution = resolve(parsed.ast, { hosts });
  diagnostics.push(...resolution.diagnostics);
  diagnostics.push(...checkStringNumberAdditions(parsed.ast, source, hosts));
  if (options.entityProperties !== undefined) diagnostics.push(...checkEntityProperties(parsed.ast, options.entityProperties));
  let module: Module | null = null;
  if (!diagnostics.some(isError)) {
    const emitted = emitModule(parsed.ast, resolution, options.sourceName ?? '<input>');
    diagnostics.push(...emitted.diagnostics);
    if (!emitted.diagnostics.some(isError)) module = emitted.module;
  }
  return { module, diagnostics: capErrors(parsed.finish(diagnostics)), ast: parsed.ast, resolution, lexed: parsed.lexed };
}

function isError(d: Diagnostic): boolean {
  return d.severity === 'error';
}

function capErrors(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length <= MAX_REPORTED_ERRORS) return diagnostics;
  const kept = diagnostics.slice(0, MAX_REPORTED_ERRORS);
  const last = kept[kept.length - 1]!;
  kept.push({ ...last, severity: 'error', message: `Too many errors (only the first ${MAX_REPORTED_ERRORS} are shown).`, token: '' });
  return kept;
}
