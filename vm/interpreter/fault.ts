/**
 * How a run fails: the light `Fault` the interpreter throws (caught once, at
 * the bottom of the loop, and turned into a SpellRuntimeError with the call
 * stack), and what becomes of anything else that escapes a host function.
 */

import { BudgetExceeded, budgetMessage } from '../budgets.js';
import { HostError, SpellRuntimeError, type BudgetLimit } from '../errors.js';
import type { Fiber } from '../fiber.js';

export class Fault {
  constructor(
    readonly message: string,
    readonly limit: BudgetLimit | null = null,
  ) {}
}

/** The run is out of fuel. */
export function fuelFault(fiber: Fiber): Fault {
  return new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
}

export function hostFault(error: unknown, context: string): Fault {
  if (error instanceof Fault) return error;
  if (error instanceof BudgetExceeded) return new Fault(error.message, error.limit);
  if (error instanceof HostError) return new Fault(error.message);
  if (error instanceof SpellRuntimeError) return new Fault(error.message, error.limit);
  return new Fault(`${context}: ${safeMessage(error)}`);
}

function safeMessage(error: unknown): string {
  try {
    if (error instanceof Error) return error.message;
    return String(error);
  } catch {
    return 'unknown error';
  }
}

export function describeFailure(error: unknown, fiber: Fiber): { message: string; limit: BudgetLimit | null } {
  if (error instanceof Fault) return { message: error.message, limit: error.limit };
  if (error instanceof BudgetExceeded) return { message: error.message, limit: error.limit };
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    // V8's own stack: no budget of the cast ran out, so none is named (compiled code keeps within it:
    // ObjFunction.compiledDepth; what is left is a host function or a host that called in deep).
    return { message: `Host limit: the ${fiber.runKind} ran out of the JavaScript engine's stack.`, limit: null };
  }
  if (error instanceof RangeError && /string length|array length/i.test(error.message)) {
    // V8's largest string or array, past a heap budget set higher than it.
    return { message: `Host limit: the ${fiber.runKind} made a string or list longer than the JavaScript engine allows.`, limit: null };
  }
  return { message: `Internal error: ${safeMessage(error)}`, limit: null };
}
