/** A call from compiled code: the frame pushed as the interpreter pushes it, then the callee's compiled code. */

import type { Fiber } from '../fiber.js';
import { HEAP_COST } from '../costs.js';
import type { Value } from '../value.js';
import { Fault, fuelFault } from '../interpreter/fault.js';
import { growFrames, growStackCharged } from '../interpreter/frames.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import { GETTER_IC, INLINE_NIL, INLINE_NONE, INLINE_SELF, INLINE_STORES, ObjInstance, type ObjClosure, type ObjFunction } from '../objects.js';
import { FINISHED, RETURNED, UNWOUND } from './statuses.js';

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
  // (A CALL site writes these same checks and stores itself: enterInline, function-source.ts. Change both.)
  if (
    compiled === null ||
    argc !== fn.arity ||
    fc >= fiber.frameIps.length ||
    fc >= fiber.frameBudget ||
    fuel < 0 ||
    newBase + fn.maxStack > fiber.stack.length ||
    fc >= fn.compiledDepth
  ) {
    fiber.sp = sp;
    return pushFrameChecked(vm, fiber, closure, argc, returnIp);
  }
  fiber.fuel = fuel;
  if (fn.inline !== INLINE_NONE && skipFrame(vm, fiber, fn, newBase)) return inlinedCallee;
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
  if (compiled === null || fc >= fn.compiledDepth) {
    fiber.frameIps[fc] = 0;
    return interpretCallee;
  }
  return compiled;
}

/**
 * A call to an empty function, an empty initializer, a getter or a function that only stores
 * into fields (ObjFunction.inline) whose frame would be pushed with every check passing and
 * nothing growing (its fuel charged already): what its code does is done here, its result
 * written in the callee's place, and no frame pushed. Nothing else of the call is observable:
 * such a callee charges no fuel and cannot fail when its caches hit (a field read or store on
 * the shape each cache holds, the fields it adds charged to the heap within the budget), and
 * its RETURN closes no upvalue (none is open at or above its base). Only compiled code does
 * this; the interpreter, which the debugger uses, always runs the callee.
 */
function skipFrame(vm: InterpreterVM, fiber: Fiber, fn: ObjFunction, newBase: number): boolean {
  const open = fiber.openUpvalues;
  if (open !== null && open.index >= newBase) return false;
  const stack = fiber.stack;
  const inline = fn.inline;
  if (inline === INLINE_NIL) stack[newBase] = null;
  else if (inline === INLINE_STORES) {
    if (!storeFields(vm, fiber, fn, stack, newBase)) return false;
  } else if (inline !== INLINE_SELF) {
    const self = stack[newBase]!;
    if (!(self instanceof ObjInstance) || self.shape !== fn.icShape[GETTER_IC]) return false;
    stack[newBase] = self.values[fn.icSlot[GETTER_IC]!]!;
  }
  return true;
}

/**
 * INLINE_STORES: the callee's SET_PROPERTYs as their cache hits run them, when every one hits
 * (each store's cache holds the shape the instance has by then) and the fields added stay within
 * the heap budget (so the charges, HEAP_COST.field per field added, measure nothing and fail
 * nowhere, as the HEAP macro's under the budget); then its result. False, with nothing done, otherwise.
 */
function storeFields(vm: InterpreterVM, fiber: Fiber, fn: ObjFunction, stack: Value[], newBase: number): boolean {
  const self = stack[newBase]!;
  if (!(self instanceof ObjInstance)) return false;
  const stores = fn.inlineStores!;
  const icShape = fn.icShape;
  const icNext = fn.icNext;
  let shape = self.shape;
  let added = 0;
  for (let i = 0; i < stores.length; i += 2) {
    const ic = stores[i]!;
    if (icShape[ic] !== shape) return false;
    const next = icNext[ic]!;
    if (next !== shape) {
      added++;
      shape = next;
    }
  }
  if (fiber.heapUsed + added * HEAP_COST.field > fiber.budgets.maxHeap) return false;
  const constants = vm.constants;
  const icSlot = fn.icSlot;
  for (let i = 0; i < stores.length; i += 2) {
    const ic = stores[i]!;
    const source = stores[i + 1]!;
    const value = source > 0 ? stack[newBase + source]! : constants[-1 - source]!;
    const next = icNext[ic]!;
    if (next === self.shape) self.values[icSlot[ic]!] = value;
    else {
      self.addField(icSlot[ic]!, value);
      self.shape = next;
      fiber.heapUsed += HEAP_COST.field;
    }
  }
  stack[newBase] = fn.inlineReturnsSelf ? self : null;
  return true;
}

/** What a call site runs for a call whose frame was skipped (skipFrame): the result is in place. */
const inlinedCallee: CompiledCode = () => RETURNED;

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
