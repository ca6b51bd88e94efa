/**
 * Parameter hints while typing a call's arguments: which call the cursor is
 * inside and which argument it is on (a scan of the text before the cursor,
 * which works while the call is half typed), and that function's signature —
 * from the host-API table for host functions, from the declaration the
 * resolver bound the name to for the spell's own functions and classes.
 */
import type * as A from '../ast.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import type { SpellDocument } from './document.js';
import { clampOffset } from './text.js';
import { hostParameterLabels, hostSignature } from './world.js';

export interface SignatureParameter {
  /** The parameter as it appears in the label (`amount: number`). */
  readonly label: string;
  readonly documentation: string;
}

export interface SignatureHint {
  /** `damage(target: entity, amount: number) -> nil` */
  readonly label: string;
  readonly documentation: string;
  readonly parameters: readonly SignatureParameter[];
  /** The argument the cursor is on (0-based); may pass the last parameter (too many arguments). */
  readonly activeParameter: number;
}

/** The innermost open call before `offset`: the callee's name and the argument index. */
export interface OpenCall {
  readonly name: string;
  readonly argument: number;
}

/** How far back the scan looks: a call's arguments rarely span more (keeps a keystroke cheap in huge files). */
const SCAN_LIMIT = 4000;

/**
 * Scans the text before the cursor, skipping strings and comments, keeping a
 * stack of open brackets; returns the innermost `name(` still open. A `[`
 * or `{` inside the arguments is part of one argument; a `;` closes calls
 * left unfinished.
 */
export function openCallAt(source: string, offset: number): OpenCall | null {
  const start = Math.max(0, offset - SCAN_LIMIT);
  const stack: { kind: '(' | '[' | '{'; name: string | null; commas: number }[] = [];
  let i = lineStartAtOrBefore(source, start);
  while (i < offset) {
    const c = source[i]!;
    if (c === '"') {
      const close = source.indexOf('"', i + 1);
      if (close === -1 || close >= offset) return null; // inside a string: no hint
      i = close + 1;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const eol = source.indexOf('\n', i);
      if (eol === -1 || eol >= offset) return null; // inside a comment
      i = eol + 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      stack.push({ kind: c, name: c === '(' ? calleeBefore(source, i) : null, commas: 0 });
    } else if (c === ')' || c === ']' || c === '}') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top) top.commas++;
    } else if (c === ';') {
      // A statement ended: no call's arguments hold a ';', so calls left open are unfinished (a `for (;;)` header stays).
      while (stack.length > 0 && stack[stack.length - 1]!.kind === '(' && stack[stack.length - 1]!.name !== null) stack.pop();
    }
    i++;
  }
  for (let k = stack.length - 1; k >= 0; k--) {
    const frame = stack[k]!;
    if (frame.kind !== '(') return null; // inside a list or a block: not an argument position
    if (frame.name !== null) return { name: frame.name, argument: frame.commas };
    // A bare `(` (grouping, or an `if (`): the call, if any, is further out.
  }
  return null;
}

function lineStartAtOrBefore(source: string, offset: number): number {
  if (offset === 0) return 0;
  const nl = source.lastIndexOf('\n', offset);
  return nl === -1 ? 0 : nl + 1;
}

const KEYWORDS_BEFORE_PAREN = new Set(['if', 'while', 'for', 'fun', 'spell', 'return', 'print', 'and', 'or', 'in', 'else']);

/** The identifier right before `(` (spaces allowed), unless it is a keyword, a declaration or a method call. */
function calleeBefore(source: string, paren: number): string | null {
  let j = paren - 1;
  while (j >= 0 && (source[j] === ' ' || source[j] === '\t')) j--;
  const end = j + 1;
  while (j >= 0 && /[A-Za-z0-9_]/.test(source[j]!)) j--;
  const name = source.slice(j + 1, end);
  if (name === '' || /^[0-9]/.test(name) || KEYWORDS_BEFORE_PAREN.has(name)) return null;
  // `fun f(` / `spell s(` declare parameters; `x.f(` is a method, whose signature is not known statically.
  const before = source.slice(Math.max(0, j - 6), j + 1);
  if (/\b(fun|spell)\s+$/.test(before) || source[j] === '.') return null;
  return name;
}

export function hostHint(spec: HostFunctionSpec, argument: number): SignatureHint {
  const labels = hostParameterLabels(spec);
  const parameters = spec.params.map((p, i) => ({ label: labels[i]!, documentation: p.doc ?? '' }));
  return { label: hostSignature(spec), documentation: spec.doc, parameters, activeParameter: argument };
}

/** The hint for the call around `offset`, or null when the cursor is not in a known call's arguments. */
export function signatureHelpAt(doc: SpellDocument, rawOffset: number): SignatureHint | null {
  const offset = clampOffset(rawOffset, doc.source);
  const call = openCallAt(doc.source, offset);
  if (!call) return null;
  // The spell's own function or class shadows a host function of the same name.
  const symbol = doc.symbolNamed(call.name, offset);
  if (symbol) {
    const fn = symbol.node.kind === 'Function' ? symbol.node : symbol.node.kind === 'Class' ? initializerOf(symbol.node) : null;
    if (symbol.kind !== 'function' && symbol.kind !== 'spell' && symbol.kind !== 'class') return null;
    const params = fn?.params.map((p) => p.name) ?? [];
    const where = `Declared in this file, line ${symbol.declarations[0]!.loc.line}.`;
    return { label: `${call.name}(${params.join(', ')})`, documentation: where, parameters: params.map((p) => ({ label: p, documentation: '' })), activeParameter: call.argument };
  }
  const spec = doc.world.hosts.find((h) => h.name === call.name);
  return spec ? hostHint(spec, call.argument) : null;
}

function initializerOf(c: A.ClassStmt): A.FunctionStmt | null {
  return c.methods.find((m) => m.functionKind === 'initializer') ?? null;
}
