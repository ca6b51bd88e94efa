/**
 * The verifier's promise, tested from the VM's side: code that passes
 * verifyModule never makes the VM fail with anything but a Cantrip error.
 *
 * Random programs are generated from the OPCODES table so that they verify by
 * construction (operands in range, stack depth consistent), but with values of
 * every type flowing into every instruction: nil under GET_SUPER, a number
 * under METHOD, a string under FOR_ITER's list slot. The VM must answer each
 * with a SpellRuntimeError, never an "Internal error" (a JS exception it had
 * to catch) or a throw.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asmModule } from './assemble.test-helper.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import type { Module } from './module.js';
import { generateModule, GLOBALS } from './random-module.test-helper.js';
import { verifyModule } from './verifier.js';
import { VM } from './vm.js';

/** What a JS exception caught by the VM looks like once it has become a message. */
const LEAKED_JS_ERROR = /Internal error|Cannot read propert|is not a function|is not iterable|undefined \(reading/;

function runSafely(module: Module): string | null {
  const vm = new VM(module, {
    hosts: CORE_HOST_FUNCTIONS,
    print: () => {},
    fuel: 5_000,
    maxFrames: 24,
    maxStack: 4_000,
    maxHeap: 50_000,
  });
  const script = vm.runScript();
  const outcomes = [script];
  for (const name of GLOBALS) if (vm.getGlobal(name) !== undefined) outcomes.push(vm.call(name, [1, 'two'], { fuel: 5_000 }));
  for (const fiber of outcomes) {
    const message = fiber.error?.message ?? null;
    if (message !== null && LEAKED_JS_ERROR.test(message)) return message;
  }
  return null;
}

describe('hostile but verified code in the VM', () => {
  // for (x in [1, 1]) with the hidden index slot overwritten before FOR_ITER reads it.
  for (const index of [-1, 0.5, 2.5, 1e300, NaN, 'a', null]) {
    it(`FOR_ITER with index ${String(index)} pushes a real value or ends the loop`, () => {
      const module = asmModule({
        constants: [1, index === null ? 'unused' : index],
        functions: [
          {
            maxStack: 6,
            code: [
              'CONSTANT', 0, 'CONSTANT', 0, 'BUILD_LIST', 2, index === null ? 'NIL' : 'CONSTANT', ...(index === null ? [] : [1]),
              'FOR_ITER', 1, '@done', 'PRINT', 'done:', 'NIL', 'RETURN',
            ],
          },
        ],
      });
      verifyModule(module, CORE_HOST_FUNCTIONS);
      const printed: string[] = [];
      const fiber = new VM(module, { print: (text) => printed.push(text) }).runScript();
      expect(fiber.error?.message ?? '').not.toMatch(LEAKED_JS_ERROR);
    });
  }
});

describe('verified random code in the VM', () => {
  it('generates modules the verifier accepts', () => {
    for (let seed = 0; seed < 200; seed++) {
      expect(() => verifyModule(generateModule(seed), CORE_HOST_FUNCTIONS)).not.toThrow();
    }
  });

  it('only ever fails with Cantrip errors', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const module = generateModule(seed);
        verifyModule(module, CORE_HOST_FUNCTIONS);
        // A message here is a JS exception the VM had to catch: add the runtime check the instruction lacks.
        expect(runSafely(module), 'VM hit a JS error on verified code').toBeNull();
      }),
      { numRuns: 3_000, seed: 11 },
    );
  });
});
