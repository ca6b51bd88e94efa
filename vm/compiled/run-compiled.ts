/** Starting a run straight in compiled code: a cast loop's spell that is compiled skips the interpreter's set-up. */

import type { Fiber } from '../fiber.js';
import { interpret } from '../generated/interpreter.js';
import { fail, waits } from '../interpreter/frames.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import type { ObjClosure } from '../objects.js';
import type { Value } from '../value.js';
import type { LoopEntry } from './compile.js';
import { FINISHED, UNWOUND, type CompiledStatus } from './statuses.js';

/**
 * Run `fiber` from the start of its only frame (`closure`'s, which is
 * compiled, at base 0: a cast loop's fiber) until it ends, waits or fails,
 * as `interpret` would.
 */
export function runCompiledFromStart(vm: InterpreterVM, fiber: Fiber, closure: ObjClosure): Fiber {
  fiber.state = 'running';
  let status: CompiledStatus;
  try {
    status = closure.fn.compiled!(vm, fiber, closure, 0, 0, fiber.sp) as CompiledStatus;
  } catch (error) {
    return failed(vm, fiber, error);
  }
  // The rest out of line: V8 inlines this into a cast loop's run, and what it inlines counts against one budget.
  return status === FINISHED ? fiber : notFinished(vm, fiber, status);
}

/**
 * Run a held cast loop's fiber (frame 0 is `closure`'s, at base 0, the fiber
 * running and live: vm/vm.ts, runHeldPair) through the spell's loop entry
 * (ObjFunction.loopEntry) with its two arguments. Null when the run finished
 * (the fiber still running and live: the loop ends it or runs it again);
 * otherwise the fiber after it failed, waits, or the interpreter went on
 * with it, as runCompiledFromStart gives it.
 */
export function runLoopEntry(vm: InterpreterVM, fiber: Fiber, closure: ObjClosure, entry: LoopEntry, first: Value, second: Value): Fiber | null {
  let status: CompiledStatus;
  try {
    status = entry(vm, fiber, closure, first, second) as CompiledStatus;
  } catch (error) {
    return failed(vm, fiber, error);
  }
  return status === FINISHED ? null : notFinished(vm, fiber, status);
}

/** The compiled run threw: the fiber fails as the interpreter's would, at its innermost frame. */
function failed(vm: InterpreterVM, fiber: Fiber, error: unknown): Fiber {
  return fail(vm, fiber, error, fiber.frameCount, fiber.frameIps[fiber.frameCount - 1]!, fiber.sp, fiber.fuel);
}

/** The compiled run waits, or left the rest to the interpreter (a callee not compiled yet, a frame too deep): it goes on from the innermost frame. */
function notFinished(vm: InterpreterVM, fiber: Fiber, status: CompiledStatus): Fiber {
  if (status === UNWOUND && waits(fiber)) return fiber;
  return interpret(vm, fiber);
}
