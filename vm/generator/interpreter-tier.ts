/** How the interpreter's cases read operands, move ip and transfer control (frames in its own registers). */

import { CONTINUATION_OPCODES } from '../instructions/index.js';
import { callOut } from './macros.js';
import type { Tier } from './tier.js';

/** `ip + d`, written plainly. */
function ipPlus(d: number): string {
  return d === 0 ? 'ip' : d > 0 ? `ip + ${d}` : `ip - ${-d}`;
}

/**
 * Run a function's compiled code from `ipExpr` in the frame on top (already
 * pushed), the registers handed over in the fiber; then, unless the run ended
 * or waits, take the registers back from the innermost frame it left.
 */
export function runCompiled(fnExpr: string, closureExpr: string, baseExpr: string, ipExpr: string): string {
  return `fiber.sp = sp;
    fiber.fuel = fuel;
    fiber.frameCount = fc;
    const status = ${fnExpr}.compiled!(fiber, ${closureExpr}, ${baseExpr}, ${ipExpr});
    if (status === FINISHED || (status === UNWOUND && waits(fiber))) return fiber;
    fc = fiber.frameCount;
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
    LEAVE: ([result]) => `fc--;
      if (fc === 0) {
        fiber.result = ${result};
        fiber.fuel = fuel;
        vm.finish(fiber, 'done');
        return fiber;
      }
      sp = base;
      stack[sp++] = ${result};
      closure = frameClosures[fc - 1]!;
      fn = closure.fn;
      code = fn.code;
      base = frameBases[fc - 1]!;
      ip = frameIps[fc - 1]!;
      continue next;`,
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
      if (enterFn.compiled !== null || ((enterFn.untilCompiled -= enterFn.callFuel) <= 0 && vm.tierUp(enterFn))) {
        ${runCompiled('enterFn', 'enterClosure', 'newBase', '0')}
        continue next;
      }
      closure = enterClosure;
      fn = enterFn;
      code = enterFn.code;
      ip = 0;
      base = newBase;
      continue next;
    }`,
    CALL_OUT: ([slot, call]) => callOut(slot!, call!, `return suspend(fiber, 'suspended', fc, ip, sp, fuel);`),
    TIER_UP_AT: ([target, charge]) =>
      `if (fn.compiled !== null || ((fn.untilCompiled -= ${charge}) <= 0 && vm.tierUp(fn))) {\n${runCompiled('fn', 'closure', 'base', target!)}\ncontinue next;\n}`,
  }),
};
