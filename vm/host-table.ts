/**
 * Host tables: checking a host function's declaration, and joining an
 * embedder's functions to the built-ins into the one table the compiler,
 * the verifier, the VM and the docs read. Callers turn a problem into their
 * own error class (WorldError, a CLI failure …).
 */

import type { HostFunctionSpec } from './host.js';
import type { ValueType } from './value.js';

/** Every type a parameter or a return value may declare. */
export const HOST_VALUE_TYPES: readonly ValueType[] = ['number', 'string', 'bool', 'list', 'entity', 'function', 'any', 'nil'];

/** The most parameters a host function may declare (a call passes at most 255 arguments). */
export const MAX_HOST_PARAMS = 255;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VALUE_TYPES: ReadonlySet<string> = new Set(HOST_VALUE_TYPES);

/** What is wrong with one declaration, or null. */
export function hostSpecProblem(spec: HostFunctionSpec, reserved: ReadonlySet<string> = new Set()): string | null {
  const name = typeof spec?.name === 'string' ? spec.name : '';
  if (!IDENTIFIER.test(name)) return `Host function name ${JSON.stringify(spec?.name ?? null)} is not an identifier.`;
  if (reserved.has(name)) return `Host function '${name}' is named like a keyword, so no spell could call it.`;
  if (!Array.isArray(spec.params)) return `Host function '${name}' has no 'params' list.`;
  if (spec.params.length > MAX_HOST_PARAMS) return `Host function '${name}' declares more than ${MAX_HOST_PARAMS} parameters.`;
  if (!VALUE_TYPES.has(spec.returns)) return `Host function '${name}' returns unknown type ${JSON.stringify(spec.returns)}.`;
  if (typeof spec.doc !== 'string') return `Host function '${name}' has no one-line 'doc'.`;
  let optionalSeen = false;
  const seen = new Set<string>();
  for (const p of spec.params) {
    const pname = typeof p?.name === 'string' ? p.name : '';
    if (!IDENTIFIER.test(pname)) return `Host function '${name}': parameter name ${JSON.stringify(p?.name ?? null)} is not an identifier.`;
    if (seen.has(pname)) return `Host function '${name}': parameter '${pname}' is declared twice.`;
    seen.add(pname);
    if (!VALUE_TYPES.has(p.type)) return `Host function '${name}': parameter '${pname}' has unknown type ${JSON.stringify(p.type)}.`;
    if (p.optional) optionalSeen = true;
    else if (optionalSeen) return `Host function '${name}': parameter '${pname}' follows an optional one, so it must be optional too.`;
  }
  return null;
}

/**
 * The built-ins followed by the embedder's functions, or the first problem:
 * a bad declaration, a name used twice, or a name that collides with a
 * built-in (a game cannot replace `damage` or `len`).
 */
export function joinHostTables<H extends HostFunctionSpec>(
  builtins: readonly H[],
  extra: readonly H[],
  reserved: ReadonlySet<string> = new Set(),
): { readonly table: readonly H[] } | { readonly problem: string } {
  if (!Array.isArray(extra)) return { problem: 'The extra host functions must be a list.' };
  const builtinNames = new Set(builtins.map((b) => b.name));
  const names = new Set<string>();
  for (const spec of extra) {
    const problem = hostSpecProblem(spec, reserved);
    if (problem !== null) return { problem };
    if (builtinNames.has(spec.name)) return { problem: `Host function '${spec.name}' collides with the built-in '${spec.name}()'; give it another name.` };
    if (names.has(spec.name)) return { problem: `Host function '${spec.name}' is declared twice.` };
    names.add(spec.name);
  }
  return { table: [...builtins, ...extra] };
}
