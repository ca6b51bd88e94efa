/**
 * The differential campaign: the same program on the interpreter, the
 * compiled tier and `auto` gives the same transcript — printed output, the
 * result, the error's text, kind (which budget) and lines, the fuel left, the
 * heap and the output charged (tier-transcript.ts) — under small budgets.
 *
 * Three sources of programs:
 *
 * - programs generated from the grammar (what the compiler emits);
 * - random modules valid by construction (vm/random-module.test-helper.ts):
 *   any value into any instruction, any live slot for a local operand;
 * - mutated `.spb` files of the corpus that still verify: operands changed
 *   within their kind's range (a local slot, a constant, a jump target …),
 *   opcodes swapped for others of the same operands, neighbouring
 *   instructions exchanged — bytecode the compiler never emits but the
 *   verifier accepts, which both tiers must run alike (issue 34: a
 *   `SET_LOCAL` naming its own operand's slot printed another value compiled).
 *
 * Fixed seed and about a minute in CI; `npm run fuzz` runs it longer from a
 * random seed (fuzz-settings.ts).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import type { Budgets } from '../../vm/budgets.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { VerifyError } from '../../vm/errors.js';
import type { Module } from '../../vm/module.js';
import { OPCODES, Op, instructionSize } from '../../vm/opcodes.js';
import { generateModule } from '../../vm/random-module.test-helper.js';
import { readSpb, writeSpb } from '../../vm/spb.js';
import { stackDepths, verifyModule } from '../../vm/verifier.js';
import { spellCorpus } from './corpus.js';
import { checkProperty } from './fuzz-settings.js';
import { programArbitrary, renderProgram } from './program-arbitrary.js';
import { sameOnEveryTier, STILL_CLOCK_HOSTS } from './tier-transcript.js';

const budgetsArbitrary: fc.Arbitrary<Partial<Budgets>> = fc.record({
  // 200,000: enough for `auto` to compile hot functions and loops at their thresholds mid-run.
  fuel: fc.constantFrom(50, 500, 5_000, 30_000, 200_000),
  maxFrames: fc.constantFrom(2, 8, 64),
  maxStack: fc.constantFrom(16, 256, 4_000),
  maxHeap: fc.constantFrom(4, 100, 20_000),
  maxOutput: fc.constantFrom(30, 100_000),
});

/** Whether the verifier accepts `module` (a VerifyError: no; anything else is a bug and thrown). */
function verifies(module: Module): boolean {
  try {
    verifyModule(module, CORE_HOST_FUNCTIONS);
    return true;
  } catch (error) {
    if (error instanceof VerifyError) return false;
    throw error;
  }
}

const corpus = spellCorpus()
  .map((file) => compile(file.text, { hosts: CORE_HOST_FUNCTIONS }).module)
  .filter((module): module is Module => module !== null)
  .map((module) => writeSpb(module));

/** The offsets where instructions start in `code`. */
function instructionStarts(code: Int32Array): number[] {
  const starts: number[] = [];
  for (let pc = 0; pc < code.length; pc += instructionSize(code[pc]!)) starts.push(pc);
  return starts;
}

/** Opcodes by their operand kinds (`local`, `jump,local` …): the ones an opcode may be swapped for. */
const SAME_OPERANDS = new Map<string, number[]>();
OPCODES.forEach((info, opcode) => {
  if (opcode === Op.BREAK) return;
  const key = info.operands.join(',');
  SAME_OPERANDS.set(key, [...(SAME_OPERANDS.get(key) ?? []), opcode]);
});

/** The verifier's stack depth before each instruction of the module's function `index`, as it is before any edit of this case (empty when it no longer verifies). */
function depthsBefore(module: Module, index: number): Int32Array {
  try {
    return stackDepths(module, index);
  } catch (error) {
    if (error instanceof VerifyError) return new Int32Array(0);
    throw error;
  }
}

/** One edit of a function's code: [which function, which instruction, which kind of edit, a number to pick with]. */
type Edit = readonly [number, number, number, number];

/**
 * Apply `edit` to `module` (in place). Operands get a value in their kind's range (what the verifier
 * checks first), so most edits reach the deeper checks (stack depth, live slots) and many pass them.
 */
function mutate(module: Module, [which, at, kind, pick]: Edit): void {
  const fn = module.functions[which % module.functions.length]!;
  const code = fn.code;
  const starts = instructionStarts(code);
  if (starts.length === 0) return;
  const pc = starts[at % starts.length]!;
  const info = OPCODES[code[pc]!]!;
  if (kind % 3 === 0 && info.operands.length > 0) {
    const k = pick % info.operands.length;
    const range: Record<string, number> = {
      local: fn.maxStack,
      constant: module.constants.length,
      name: module.constants.length,
      global: module.globals.length,
      function: module.functions.length,
      upvalue: fn.upvalues.length,
      host: module.hostImports.length,
      count: 5,
    };
    const operand = info.operands[k]!;
    const depth = depthsBefore(module, which % module.functions.length)[pc] ?? -1;
    if (operand === 'local' && depth > 0 && (pick & 4) === 0) {
      // A slot at the top of the stack (the operand's own, the values just below it): the slots compiled
      // code holds in locals within a block, where the compiler's slots never are.
      code[pc + 1 + k] = Math.max(0, depth - 1 - ((pick >> 3) % 3));
    } else code[pc + 1 + k] = operand === 'jump' ? starts[(pick >> 3) % starts.length]! : (pick >> 3) % Math.max(1, range[operand]!);
  } else if (kind % 3 === 1) {
    const swaps = SAME_OPERANDS.get(info.operands.join(','))!;
    code[pc] = swaps[pick % swaps.length]!;
  } else {
    // Exchange this instruction with the next (its words move; jump operands keep their values).
    const index = starts.indexOf(pc);
    const next = starts[index + 1];
    if (next === undefined) return;
    const end = next + instructionSize(code[next]!);
    const first = Array.from(code.subarray(pc, next));
    const second = Array.from(code.subarray(next, end));
    code.set([...second, ...first], pc);
  }
}

describe('the same program on every tier (interpreter, compiled, auto)', () => {
  it('programs generated from the grammar', () => {
    const property = fc.property(programArbitrary({ world: false }).map(renderProgram), budgetsArbitrary, (source, budgets) => {
      const { module } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
      if (module === null) return;
      verifyModule(module, CORE_HOST_FUNCTIONS);
      sameOnEveryTier(module, budgets);
    });
    checkProperty('tiers: generated programs', property, 150);
  });

  it('random modules valid by construction', () => {
    const property = fc.property(fc.integer(), budgetsArbitrary, (seed, budgets) => {
      const module = generateModule(seed);
      verifyModule(module, CORE_HOST_FUNCTIONS);
      sameOnEveryTier(module, budgets, STILL_CLOCK_HOSTS);
    });
    checkProperty('tiers: random verified modules', property, 400);
  });

  it('mutated .spb files of the corpus that still verify', () => {
    let verified = 0;
    let tried = 0;
    const edit = fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat());
    const property = fc.property(fc.nat({ max: corpus.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 3 }), budgetsArbitrary, (file, edits, budgets) => {
      const module = readSpb(corpus[file]!);
      for (const e of edits) mutate(module, e);
      // As a file: written and read back, as `cantrip run x.spb` would load it.
      const loaded = readSpb(writeSpb(module));
      tried++;
      if (!verifies(loaded)) return;
      verified++;
      sameOnEveryTier(loaded, budgets);
    });
    checkProperty('tiers: mutated .spb that verifies', property, 1_500);
    // Most edits must reach the tiers, or this compares nothing.
    expect(verified).toBeGreaterThan(tried / 4);
  });
});
