/**
 * Helpers for the compiler's tests: compile-and-inspect, instruction listings
 * by opcode name, and running a module on the real VM.
 */

import { expect } from 'vitest';
import { CORE_HOST_FUNCTIONS } from '../vm/builtins.js';
import type { HostFunctionSpec } from '../vm/host.js';
import type { FunctionProto, Module } from '../vm/module.js';
import { instructionSize, OPCODES } from '../vm/opcodes.js';
import { verifyModule } from '../vm/verifier.js';
import { VM } from '../vm/vm.js';
import { compile, formatDiagnosticClox, type CompileOptions } from './index.js';

/** Compile, expecting success, and check the module passes the verifier. */
export function compileOk(source: string, options: CompileOptions = {}): Module {
  const result = compile(source, options);
  const errors = result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnosticClox);
  expect(errors).toEqual([]);
  expect(result.module).not.toBeNull();
  verifyModule(result.module!, options.hosts ?? CORE_HOST_FUNCTIONS);
  return result.module!;
}

/** The clox-formatted diagnostics of a compile. */
export function messages(source: string, options: CompileOptions = {}): string[] {
  return compile(source, options).diagnostics.map(formatDiagnosticClox);
}

/** Instructions as `NAME operand…` strings. */
export function listing(fn: FunctionProto): string[] {
  const out: string[] = [];
  for (let pc = 0; pc < fn.code.length; ) {
    const op = fn.code[pc]!;
    const size = instructionSize(op);
    out.push([OPCODES[op]!.name, ...fn.code.slice(pc + 1, pc + size)].join(' '));
    pc += size;
  }
  return out;
}

/** Opcode names only. */
export function opNames(fn: FunctionProto): string[] {
  return listing(fn).map((line) => line.split(' ')[0]!);
}

/** Compile and run the script on the real VM; returns what it printed (and the error, if any). */
export function run(source: string, hosts: readonly HostFunctionSpec[] = CORE_HOST_FUNCTIONS): { output: string[]; error: string | null } {
  const module = compileOk(source, { hosts });
  const output: string[] = [];
  const vm = new VM(module, { print: (text) => output.push(text) });
  const fiber = vm.runScript();
  return { output, error: fiber.error?.message ?? null };
}

/** The spec-only host list the compiler tests use (no implementations needed to compile). */
export const TEST_HOSTS: readonly HostFunctionSpec[] = [
  { name: 'clock', params: [], returns: 'number', doc: '' },
  { name: 'len', params: [{ name: 'x', type: 'any' }], returns: 'number', doc: '' },
  { name: 'str', params: [{ name: 'x', type: 'any' }], returns: 'string', doc: '' },
  { name: 'floor', params: [{ name: 'n', type: 'number' }], returns: 'number', doc: '' },
  { name: 'abs', params: [{ name: 'n', type: 'number' }], returns: 'number', doc: '' },
  { name: 'sqrt', params: [{ name: 'n', type: 'number' }], returns: 'number', doc: '' },
  { name: 'min', params: [{ name: 'a', type: 'number' }, { name: 'b', type: 'number' }], returns: 'number', doc: '' },
  { name: 'max', params: [{ name: 'a', type: 'number' }, { name: 'b', type: 'number' }], returns: 'number', doc: '' },
  {
    name: 'particles',
    params: [
      { name: 'kind', type: 'string' },
      { name: 'x', type: 'number' },
      { name: 'y', type: 'number' },
      { name: 'count', type: 'number', optional: true },
    ],
    returns: 'nil',
    doc: '',
  },
];
