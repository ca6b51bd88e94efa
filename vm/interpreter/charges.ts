/** What the interpreter charges against a run's budgets: heap, output, and the fuel around host calls. */

import { budgetMessage } from '../budgets.js';
import type { Fiber } from '../fiber.js';
import type { ObjHostFunction } from '../objects.js';
import type { Value } from '../value.js';
import { Fault, fuelFault } from './fault.js';

/**
 * Charge the heap budget for an allocation an instruction makes (the HEAP
 * macro: vm/generator/case-writer.ts): true when the fiber's count passed its
 * maxHeap, and the caller then takes the slow road, heapOverflow
 * (vm/retained-heap.ts: the error, or the measurement of what the fiber retains). Small, so
 * that V8 inlines it: the fast road is an add and a compare, and leaves the
 * `fuel` local alone (a `fuel` local merged with a call's result at every
 * allocation lost its unboxed form, and programs that allocate ran ~10% slower).
 */
export function heapOver(fiber: Fiber, units: number): boolean {
  return (fiber.heapUsed += units) > fiber.budgets.maxHeap;
}

/** Charge the output budget for text sent out (print). */
export function chargeOutput(fiber: Fiber, chars: number): void {
  fiber.outputUsed += chars;
  if (fiber.outputUsed > fiber.budgets.maxOutput) throw new Fault(budgetMessage('output', fiber.budgets, fiber.runKind), 'output');
}

/**
 * Whether a host call left the fiber over a budget (then checkBudgetsAfterHost says which); small, so V8 inlines it.
 * CALL_HOST writes the same test out (vm/instructions/calls.ts, where the reason is measured): change both together.
 */
export function overBudget(fiber: Fiber): boolean {
  const budgets = fiber.budgets;
  return fiber.fuel < 0 || fiber.heapUsed > budgets.maxHeap || fiber.outputUsed > budgets.maxOutput;
}

/** A host function may swallow the budget error it caused; the budget is still spent: the error of the first budget passed. */
export function checkBudgetsAfterHost(fiber: Fiber): void {
  if (fiber.fuel < 0) throw fuelFault(fiber);
  if (fiber.heapUsed > fiber.budgets.maxHeap) throw new Fault(budgetMessage('heap', fiber.budgets, fiber.runKind), 'heap');
  if (fiber.outputUsed > fiber.budgets.maxOutput) throw new Fault(budgetMessage('output', fiber.budgets, fiber.runKind), 'output');
}

/**
 * Before a host call: its base fuel (the spec's `fuel`), and 1 fuel per character of its string
 * arguments (it may hash, copy or scan them).
 */
export function chargeBeforeHost(fiber: Fiber, host: ObjHostFunction, stack: readonly Value[], argBase: number, argc: number): void {
  let chars = host.baseFuel;
  if (host.takesText) {
    for (let i = 0; i < argc; i++) {
      const arg = stack[argBase + i];
      if (typeof arg === 'string') chars += arg.length;
    }
  }
  fiber.fuel -= chars;
  if (fiber.fuel < 0) throw fuelFault(fiber);
}
