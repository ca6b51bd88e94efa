/** How the interpreter's cases read operands, move ip and transfer control (frames in its own registers). */

import { CONTINUATION_OPCODES } from '../instructions/index.js';
import { callOut, leave } from './macros.js';
import type { Tier } from './tier.js';

/** `ip + d`, written plainly. */
function ipPlus(d: number): string {
  return d === 0 ? 'ip' : d > 0 ? `ip + ${d}` : `ip - ${-d}`;
}

/** Take the registers back from the fiber's innermost frame, as compiled code left it. */
export const RELOAD_REGISTERS = `fc = fiber.frameCount;
  sp = fiber.sp;
  fuel = fiber.fuel;
  frameIps = fiber.frameIps;
  frameBases = fiber.frameBases;
  frameClosures = fiber.frameClosures;
  frameLimit = Math.min(frameIps.length, fiber.frameBudget);
  closure = frameClosures[fc - 1]!;
  fn = closure.fn;
  code = fn.code;
  base = frameBases[fc - 1]!;
  ip = frameIps[fc - 1]!;`;

/** The interpreter's case that goes on after compiled code returned (never in bytecode). */
export const RELOAD_OPCODE = -3;

/**
 * Run a function's compiled code from `ipExpr` in the frame on top (already
 * pushed), the registers handed over in the fiber; then, unless the run ended
 * or waits, go on in the RELOAD case, which takes the registers back.
 */
export function runCompiled(codeExpr: string, closureExpr: string, baseExpr: string, ipExpr: string): string {
  return `fiber.sp = sp;
    fiber.fuel = fuel;
    fiber.frameCount = fc;
    if (runCompiledFrame(vm, fiber, ${codeExpr}, ${closureExpr}, ${baseExpr}, ${ipExpr})) return fiber;
    { op = ${RELOAD_OPCODE}; continue dispatch; }`;
}

export const INTERPRETER_TIER: Tier = {
  word: (offset, cur) => `code[${ipPlus(offset - cur)}]!`,
  position: (offset, cur) => `(${ipPlus(offset - cur)})`,
  moveIp: (cur, to) => `ip += ${to - cur};`,
  startsAt: 1,
  labelsFrameParts: false,
  fallThrough: 'continue next;',
  controlMacros: (part) => ({
    JUMP: ([target]) => (part.follows ? `ip = (${target}) + 1;` : `{ ip = ${target}; continue next; }`),
    LEAVE: ([result]) =>
      leave(
        result!,
        'return fiber;',
        `closure = frameClosures[fc - 1]!;
        fn = closure.fn;
        code = fn.code;
        base = frameBases[fc - 1]!;
        ip = frameIps[fc - 1]!;
        continue next;`,
      ),
    GOTO: ([name]) => `{ op = ${CONTINUATION_OPCODES[name!]}; continue dispatch; }`,
    DISPATCH: ([opcode]) => `{ op = ${opcode}; continue dispatch; }`,
    ENTER: ([callee, argc]) => `{
      const enterClosure = ${callee};
      const enterArgc = ${argc};
      const enterFn = enterClosure.fn;
      if (enterArgc !== enterFn.arity) throw new Fault(\`Expected \${enterFn.arity} arguments but got \${enterArgc}.\`);
      if (fc >= frameLimit) {
        frameLimit = growFrames(fiber, fc);
        frameIps = fiber.frameIps;
        frameBases = fiber.frameBases;
        frameClosures = fiber.frameClosures;
      }
      fuel -= enterFn.callFuel;
      if (fuel < 0) throw fuelFault(fiber);
      const newBase = sp - 1 - enterArgc;
      if (newBase + enterFn.maxStack > stack.length) fuel = growStackCharged(fiber, newBase + enterFn.maxStack, fuel);
      frameIps[fc - 1] = ip;
      frameClosures[fc] = enterClosure;
      frameBases[fc] = newBase;
      fc++;
      // A compiled function's untilCompiled is -Infinity: one test for "compiled, or hot now".
      if ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && (enterFn.compiled !== null || vm.tierUp(enterFn))) {
        ${runCompiled('enterFn.compiled!', 'enterClosure', 'newBase', '0')}
      }
      closure = enterClosure;
      fn = enterFn;
      code = enterFn.code;
      ip = 0;
      base = newBase;
      continue next;
    }`,
    CALL_OUT: ([slot, call]) => callOut(slot!, call!, `return suspend(fiber, 'suspended', fc, ip, sp, fuel);`),
    // The registers a call out's callee may measure (a heap charge: vm/retained-heap.ts), which the interpreter keeps in locals.
    MEASURABLE: () => 'fiber.sp = sp;\nfiber.frameCount = fc',
    TIER_UP_AT: ([target, charge]) =>
      // Sampled: one back edge in BACK_EDGE_SAMPLE is counted (for all of them), so a tight loop pays a
      // decrement of a local, not a store to its function (that cost loops ~25%). A hot loop of a
      // function not compiled goes on in the compiled code of that loop alone (vm.loopCode).
      `if (--backEdges === 0) {
        backEdges = BACK_EDGE_SAMPLE;
        if ((fn.untilCompiled -= BACK_EDGE_SAMPLE * (${charge})) <= 0) {
          const loopCode = fn.compiled ?? vm.loopCode(fn, ${target!});
          if (loopCode !== null) {\n${runCompiled('loopCode', 'closure', 'base', target!)}\n}
        }
      }`,
  }),
};
