/** Leaving the interpreter's loop (a wait, a pause, a failure) and growing a fiber's frames and stack. */

import { budgetMessage } from '../budgets.js';
import { SpellRuntimeError } from '../errors.js';
import type { Fiber } from '../fiber.js';
import { measureAtWait } from '../retained-heap.js';
import { Unwind } from '../compiled/unwind.js';
import { Fault, describeFailure, fuelFault } from './fault.js';
import type { InterpreterVM } from './interpreter-vm.js';

/**
 * Save the interpreter's registers into the fiber and leave the loop. A fiber
 * that waits ('suspended') ends its slice: what it keeps across the wait is
 * measured, paid from its fuel (vm/retained-heap.ts; a budget error, thrown
 * to the loop's catch, when it cannot pay or keeps more than maxHeap).
 */
export function suspend(fiber: Fiber, state: 'suspended' | 'paused', fc: number, ip: number, sp: number, fuel: number): Fiber {
  fiber.frameIps[fc - 1] = ip;
  fiber.frameCount = fc;
  fiber.sp = sp;
  fiber.fuel = state === 'suspended' ? measureAtWait(fiber, fuel) : fuel;
  fiber.state = state;
  return fiber;
}

/** Whether compiled code left the fiber waiting. */
export function waits(fiber: Fiber): boolean {
  return fiber.state === 'suspended';
}

/** End the run with the error the loop caught, its trace taken at `ip`. */
export function fail(vm: InterpreterVM, fiber: Fiber, error: unknown, fc: number, ip: number, sp: number, fuel: number): Fiber {
  // Thrown in compiled code: the registers of the frame that threw came with it.
  if (error instanceof Unwind) return fail(vm, fiber, error.error, error.fc, error.ip, error.sp, Math.min(fuel, error.fuel));
  fiber.frameCount = fc;
  fiber.sp = sp;
  // A host function that threw may have charged fiber.fuel past the loop's copy: fuel only goes down.
  fiber.fuel = Math.min(fuel, fiber.fuel);
  const trace = fiber.trace(ip);
  const { message, limit } = describeFailure(error, fiber);
  vm.finish(fiber, 'failed');
  fiber.error = new SpellRuntimeError(message, trace, limit, fiber.spell);
  return fiber;
}

/** Make room for one more frame, or fail with "Stack overflow.". Returns the new frame limit. */
export function growFrames(fiber: Fiber, fc: number): number {
  if (fc >= fiber.frameBudget) throw new Fault(budgetMessage('call depth', fiber.budgets, fiber.runKind), 'call depth');
  fiber.growFrames(fc + 1);
  return Math.min(fiber.frameIps.length, fiber.frameBudget);
}

/**
 * growStack for a call: growing the value stack is work in proportion to the slots added,
 * charged as fuel. Returns the fuel left. Out of line, so the CALL paths stay short (the
 * inline version cost fib ~8%).
 */
export function growStackCharged(fiber: Fiber, needed: number, fuel: number): number {
  const before = fiber.stack.length;
  growStack(fiber, needed);
  const left = fuel - (fiber.stack.length - before);
  if (left < 0) {
    fiber.fuel = left; // fail() keeps the lower of this and the loop's copy
    throw fuelFault(fiber);
  }
  return left;
}

export function growStack(fiber: Fiber, needed: number): void {
  if (needed > fiber.budgets.maxStack) throw new Fault(budgetMessage('stack', fiber.budgets, fiber.runKind), 'stack');
  fiber.growStack(Math.min(needed, fiber.budgets.maxStack));
}
