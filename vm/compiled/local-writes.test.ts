/**
 * Any module the verifier accepts runs identically on every tier, including
 * code the compiler never emits: a `SET_LOCAL k` whose slot k is the stack
 * slot of its own operand (a store of the top into itself: nothing changes).
 * The compiled tier held the operand in a local and wrote the value into the
 * last value it held instead (`[A, C]` where the interpreter printed `[A, B]`).
 */

import { describe, expect, it } from 'vitest';
import { asmModule, type AsmItem } from '../assemble.test-helper.js';
import { verifyModule } from '../verifier.js';
import { CORE_HOST_FUNCTIONS } from '../builtins.js';
import { VM, type Tier } from '../vm.js';
import type { Module } from '../module.js';

function run(module: Module, tier: Tier): { output: string[]; error: string | null; fuel: number; heap: number } {
  const output: string[] = [];
  const vm = new VM(module, { tier, print: (text) => output.push(text) });
  const fiber = vm.runScript();
  expect(vm.compileFailures).toEqual([]);
  return { output, error: fiber.error?.format() ?? null, fuel: fiber.fuel, heap: fiber.heapUsed };
}

function script(code: readonly AsmItem[]): Module {
  const module = asmModule({ constants: ['A', 'B', 'C', 'D'], functions: [{ code, maxStack: 12 }] });
  verifyModule(module, CORE_HOST_FUNCTIONS);
  return module;
}

function sameOnEveryTier(module: Module, expected: string[]): void {
  const interpreted = run(module, 'interpreter');
  expect(interpreted.output).toEqual(expected);
  expect(run(module, 'compiled')).toEqual(interpreted);
  expect(run(module, 'auto')).toEqual(interpreted);
}

describe('a local write that names a slot the generated code holds in a local', () => {
  it('SET_LOCAL into its own operand\'s slot, under values held in locals', () => {
    // Slots 1, 2, 3 hold A, B, C; SET_LOCAL 3 stores C into slot 3, where it is.
    const module = script(['CONSTANT', 0, 'CONSTANT', 1, 'CONSTANT', 2, 'SET_LOCAL', 3, 'POP', 'GET_LOCAL', 1, 'GET_LOCAL', 2, 'BUILD_LIST', 2, 'PRINT', 'NIL', 'RETURN']);
    sameOnEveryTier(module, ['[A, B]']);
  });

  it('SET_LOCAL into its own operand\'s slot with nothing else held, and into each held value\'s slot', () => {
    for (const slot of [1, 2, 3, 4]) {
      const module = script([
        'CONSTANT', 0, 'CONSTANT', 1, 'CONSTANT', 2, 'CONSTANT', 3, 'SET_LOCAL', slot,
        'BUILD_LIST', 4, 'PRINT', 'NIL', 'RETURN',
      ]);
      const expected = ['A', 'B', 'C', 'D'];
      expected[slot - 1] = 'D';
      sameOnEveryTier(module, [`[${expected.join(', ')}]`]);
    }
  });

  it('the same after a jump (the slots on the stack, the operand in a local)', () => {
    const module = script([
      'CONSTANT', 0, 'CONSTANT', 1, 'JUMP', '@on', 'on:', 'CONSTANT', 2, 'SET_LOCAL', 3, 'GET_LOCAL', 3, 'ADD', 'BUILD_LIST', 2, 'PRINT', 'NIL', 'RETURN',
    ]);
    sameOnEveryTier(module, ['[B, CC]']);
  });
});
