/** A call from compiled code: the frame pushed as the interpreter pushes it, then the callee's compiled code. */

import type { Fiber } from '../fiber.js';
import { Fault, fuelFault } from '../interpreter/fault.js';
import { growFrames, growStackCharged } from '../interpreter/frames.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import type { ObjClosure, ObjFunction } from '../objects.js';
import type { Value } from '../value.js';
import { COMPILED_DEPTH_LIMIT, FINISHED, UNWOUND } from './statuses.js';

/**
 * Push the frame of a call to `closure` with the `argc` arguments on the
 * fiber's stack below `sp` (the fuel left in `fiber.fuel`), returning to
 * `returnIp` in the caller: the same checks and charges as the interpreter's
 * call, in the same order. Returns the callee's compiled code, which the call site then calls
 * itself (so that V8's feedback on that call is the site's own, and it can
 * inline the callee there); or, when the interpreter is to run the callee
 * (not compiled yet: it pays for its compile in fuel first; or too deep for
 * the JS stack), `interpretCallee`, which returns UNWOUND (the frame pushed).
 */
export function pushFrame(vm: InterpreterVM, fiber: Fiber, closure: ObjClosure, argc: number, returnIp: number, sp: number): CompiledCode {
  const fn = closure.fn;
  const fc = fiber.frameCount;
  const fuel = fiber.fuel - fn.callFuel;
  const newBase = sp - 1 - argc;
  const compiled = fn.compiled;
  // The common case, small enough for V8 to inline at every call: every check passes, nothing grows.
  if (
    compiled === null ||
    argc !== fn.arity ||
    fc >= fiber.frameIps.length ||
    fc >= fiber.frameBudget ||
    fuel < 0 ||
    newBase + fn.maxStack > fiber.stack.length ||
    fc >= COMPILED_DEPTH_LIMIT
  ) {
    fiber.sp = sp;
    return pushFrameChecked(vm, fiber, closure, argc, returnIp);
  }
  fiber.fuel = fuel;
  fiber.frameIps[fc - 1] = returnIp;
  fiber.frameClosures[fc] = closure;
  fiber.frameBases[fc] = newBase;
  fiber.frameCount = fc + 1;
  return compiled;
}

/** pushFrame with every check and charge in the interpreter's order (one of them fails, grows or compiles), the registers in the fiber. */
function pushFrameChecked(vm: InterpreterVM, fiber: Fiber, closure: ObjClosure, argc: number, returnIp: number): CompiledCode {
  const fn = closure.fn;
  if (argc !== fn.arity) throw new Fault(`Expected ${fn.arity} arguments but got ${argc}.`);
  const fc = fiber.frameCount;
  if (fc >= Math.min(fiber.frameIps.length, fiber.frameBudget)) growFrames(fiber, fc);
  fiber.fuel -= fn.callFuel;
  if (fiber.fuel < 0) throw fuelFault(fiber);
  const newBase = fiber.sp - 1 - argc;
  if (newBase + fn.maxStack > fiber.stack.length) fiber.fuel = growStackCharged(fiber, newBase + fn.maxStack, fiber.fuel);
  fiber.frameIps[fc - 1] = returnIp;
  fiber.frameClosures[fc] = closure;
  fiber.frameBases[fc] = newBase;
  fiber.frameCount = fc + 1;
  const compiled = fn.compiled !== null || ((fn.untilCompiled -= fn.callFuel) <= 0 && vm.tierUp(fn)) ? fn.compiled : null;
  if (compiled === null || fc >= COMPILED_DEPTH_LIMIT) {
    fiber.frameIps[fc] = 0;
    return interpretCallee;
  }
  return compiled;
}

type CompiledCode = NonNullable<ObjFunction['compiled']>;

/** What a call from compiled code runs when the interpreter is to run the callee: its frame is pushed, the caller unwinds. */
export const interpretCallee: CompiledCode = () => UNWOUND;

/**
 * Compiled code leaving the rest of its frame to the interpreter (an ip that
 * is not a block's start: a return address after a wait, or outside a loop
 * compiled alone): its registers saved in the fiber.
 */
export function toInterpreter(fiber: Fiber, fc: number, ip: number, sp: number, fuel: number): number {
  fiber.frameIps[fc - 1] = ip;
  fiber.sp = sp;
  fiber.fuel = fuel;
  fiber.frameCount = fc;
  return UNWOUND;
}

/** The fiber's first frame returned `result` in compiled code: the run is over. */
export function finishRun(vm: InterpreterVM, fiber: Fiber, result: Value, fuel: number): number {
  fiber.result = result;
  fiber.fuel = fuel;
  vm.finish(fiber, 'done');
  return FINISHED;
}
