/** A call from compiled code: the frame pushed as the interpreter pushes it, then the callee's compiled code. */

import type { Fiber } from '../fiber.js';
import { Fault, fuelFault } from '../interpreter/fault.js';
import { growFrames, growStackCharged } from '../interpreter/frames.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import { GETTER_IC, INLINE_NIL, INLINE_NONE, INLINE_SELF, ObjInstance, type ObjClosure, type ObjFunction } from '../objects.js';
import { COMPILED_DEPTH_LIMIT, RETURNED, UNWOUND } from './statuses.js';

/**
 * Push the frame of a call to `closure` with the `argc` arguments on the
 * fiber's stack (its registers in the fiber), returning to `returnIp` in the
 * caller: the same checks and charges as the interpreter's call, in the same
 * order. Returns the callee's compiled code, which the call site then calls
 * itself (so that V8's feedback on that call is the site's own, and it can
 * inline the callee there); or, when the interpreter is to run the callee
 * (not compiled yet: it pays for its compile in fuel first; or too deep for
 * the JS stack), `interpretCallee`, which returns UNWOUND (the frame pushed).
 */
export function pushFrame(vm: InterpreterVM, fiber: Fiber, closure: ObjClosure, argc: number, returnIp: number): CompiledCode {
  const fn = closure.fn;
  const fc = fiber.frameCount;
  const fuel = fiber.fuel - fn.callFuel;
  const newBase = fiber.sp - 1 - argc;
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
    return pushFrameChecked(vm, fiber, closure, argc, returnIp);
  }
  fiber.fuel = fuel;
  if (fn.inline !== INLINE_NONE && skipFrame(fiber, fn, newBase)) return inlinedCallee;
  fiber.frameIps[fc - 1] = returnIp;
  fiber.frameClosures[fc] = closure;
  fiber.frameBases[fc] = newBase;
  fiber.frameCount = fc + 1;
  return compiled;
}

/** pushFrame with every check and charge in the interpreter's order (one of them fails, grows or compiles). */
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

/**
 * A call to an empty function, an empty initializer or a getter (ObjFunction.inline) whose frame would be pushed
 * with every check passing and nothing growing (its fuel charged already): its result is
 * written in the callee's place, and no frame pushed. Nothing else of the call is observable: such
 * a callee allocates nothing, charges nothing more and cannot fail (the getter's own inline
 * cache holds the receiver's shape: a field hit), and its RETURN closes no upvalue (none is open
 * at or above its base). Only compiled code does this; the interpreter, which the debugger
 * uses, always runs the callee.
 */
function skipFrame(fiber: Fiber, fn: ObjFunction, newBase: number): boolean {
  const open = fiber.openUpvalues;
  if (open !== null && open.index >= newBase) return false;
  const stack = fiber.stack;
  const inline = fn.inline;
  if (inline === INLINE_NIL) stack[newBase] = null;
  else if (inline !== INLINE_SELF) {
    const self = stack[newBase]!;
    if (!(self instanceof ObjInstance) || self.shape !== fn.icShape[GETTER_IC]) return false;
    stack[newBase] = self.values[fn.icSlot[GETTER_IC]!]!;
  }
  fiber.sp = newBase + 1;
  return true;
}

/** What a call site runs for a call whose frame was skipped (skipFrame): the result is in place. */
const inlinedCallee: CompiledCode = () => RETURNED;

type CompiledCode = NonNullable<ObjFunction['compiled']>;

/** What a call from compiled code runs when the interpreter is to run the callee: its frame is pushed, the caller unwinds. */
export const interpretCallee: CompiledCode = () => UNWOUND;
