/**
 * Writes the interpreter (vm/generated/interpreter.ts) from the instruction
 * definitions (vm/instructions/) and the superinstruction list
 * (vm/superinstructions.ts), as CPython's cases generator writes its
 * interpreter from Python/bytecodes.c.
 *
 * The interpreter is ONE function with ONE `switch` over numeric case labels
 * (V8 compiles a switch to a jump table only when it sees constant case
 * values: a `case O.ADD` through an import ran fib(30) 30–50% slower), with
 * ip, base, sp, code and fuel in locals. Each case is a sequence of parts —
 * one for a plain instruction, several for a superinstruction — pasted from
 * the definitions' bodies with their macros expanded (see
 * vm/instructions/define.ts). Between parts, values stay in locals (`t0`,
 * `t1`…) and only reach the stack when a part needs it.
 *
 * `ip` convention: a case starts with ip one past its opcode word. Before a
 * part that can fail, ip is moved past that part, so an error reports the
 * line of the instruction that failed, exactly as the plain code would.
 */

import { CONTINUATION_OPCODES, INSTRUCTIONS, INTERNAL_INSTRUCTIONS } from '../instructions/index.js';
import { FIRST_SUPERINSTRUCTION, SUPERINSTRUCTION_LIST } from '../superinstructions.js';
import { CaseWriter } from './case-writer.js';
import { INTERPRETER_TIER, RELOAD_OPCODE, RELOAD_REGISTERS } from './interpreter-tier.js';
import { formatCode } from './macros.js';
import * as HELPERS from '../interpreter/helpers.js';

/** The names the bodies use, from vm/interpreter/helpers.ts. */
const HELPER_NAMES = Object.keys(HELPERS).sort();
import { partsOf, single, type Part } from './parts.js';

function writeCase(label: string, parts: readonly Part[]): string {
  return `case ${label}: {\n${new CaseWriter(INTERPRETER_TIER, parts).write()}\n}`;
}

/** Every case of the interpreter's switch. */
export function interpreterCases(): string[] {
  const cases: string[] = [];
  INSTRUCTIONS.forEach((def, opcode) => cases.push(writeCase(`${opcode} /* ${def.name} */`, [single(def)])));
  for (const def of INTERNAL_INSTRUCTIONS.continuations) {
    cases.push(writeCase(`${CONTINUATION_OPCODES[def.name]} /* ${def.name} */`, [single(def)]));
  }
  SUPERINSTRUCTION_LIST.forEach((sup, i) => {
    cases.push(writeCase(`${FIRST_SUPERINSTRUCTION + i} /* ${sup.name}: ${sup.steps.join(' ')} */`, partsOf(sup.steps)));
  });
  cases.push(`case ${RELOAD_OPCODE} /* RELOAD: back from compiled code */: {\n${RELOAD_REGISTERS}\ncontinue next;\n}`);
  return cases;
}

const HEADER = `// GENERATED FILE — do not edit. Written by vm/generator/interpreter-source.ts from the
// instruction definitions in vm/instructions/ and the superinstructions in vm/superinstructions.ts.
// \`npm run generate\` writes it again; vm/generator/interpreter-fresh.test.ts fails while it is stale.
`;

/** The whole source of vm/generated/interpreter.ts. */
export function interpreterSource(): string {
  const cases = interpreterCases().map((c) => formatCode(c, 10));
  return `${HEADER}
/**
 * The interpreter: a clox-style stack machine running a fiber's frames until
 * it returns, waits, pauses at a breakpoint or fails. See
 * vm/generator/interpreter-source.ts for how it is written, and
 * vm/instructions/ for what each case does.
 */

import type { Fiber } from '../fiber.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import type { Value } from '../value.js';
import {
${HELPER_NAMES.map((name) => `  ${name},`).join('\n')}
} from '../interpreter/helpers.js';

export function interpret(vm: InterpreterVM, fiber: Fiber): Fiber {
  const constants = vm.constants;
  const globals = vm.globals;
  const globalNames = vm.globalNames;
  const functions = vm.functions;
  const hostImports = vm.hostImports;
  const ctx = vm.ctx;
  const print = vm.printFn;
  const stack = fiber.stack;
  let frameIps = fiber.frameIps;
  let frameBases = fiber.frameBases;
  let frameClosures = fiber.frameClosures;
  let fc = fiber.frameCount;
  let frameLimit = Math.min(frameIps.length, fiber.frameBudget);
  let closure = frameClosures[fc - 1]!;
  let fn = closure.fn;
  let code = fn.code;
  let ip = frameIps[fc - 1]!;
  let base = frameBases[fc - 1]!;
  let sp = fiber.sp;
  let fuel = fiber.fuel;
  // The registers of the call continuations (PUSH_FRAME, CALL_VALUE).
  let callTarget: ObjClosure = closure;
  let callArgc = 0;
  // Back edges left before the next one is counted towards compiling its function (TIER_UP_AT).
  let backEdges = BACK_EDGE_SAMPLE;
  fiber.state = 'running';

  try {
    // A frame whose function is compiled starts there (a run of the compiled tier, or a resumed fiber);
    // a run from a function's start (a cast loop's spell, a script) counts as a call towards compiling it.
    if (fn.compiled !== null || (ip === 0 && (fn.untilCompiled -= fn.callFuel) <= 0 && vm.tierUp(fn))) {
      if (runCompiledFrame(vm, fiber, fn.compiled!, closure, base, ip)) return fiber;
${formatCode(RELOAD_REGISTERS, 6)}
    }
    next: for (;;) {
      let op = code[ip++]!;
      // The inner loop exists only so a case can re-dispatch (\`continue dispatch\`) to another
      // case: the call continuations, and BREAK running the instruction it replaced.
      dispatch: for (;;) {
        switch (op) {
${cases.join('\n')}
          default:
            throw new Fault(\`Unknown opcode \${op}.\`);
        }
      }
    }
  } catch (error) {
    return fail(vm, fiber, error, fc, ip, sp, fuel);
  }
}
`;
}
