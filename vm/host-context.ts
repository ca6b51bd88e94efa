/**
 * The HostContext the VM hands to host functions. One instance per VM,
 * re-pointed at the calling fiber before each host call (so a call costs no
 * allocation); the VM saves and restores it around calls so a host function
 * may itself start another cast (re-entrancy).
 */

import { BudgetExceeded, budgetMessage } from './budgets.js';
import { HEAP_COST } from './costs.js';
import type { Fiber } from './fiber.js';
import type { HostContext } from './host.js';
import { heapOverflow } from './retained-heap.js';
import { ObjList, type ObjFunction } from './objects.js';
import type { Value } from './value.js';

export class VmHostContext implements HostContext {
  /** Set by `suspend()`; the VM reads and clears it after the host function returns. */
  suspendRequested = false;
  fiber: Fiber | null = null;
  /** Where the call is, for `line`. */
  fn: ObjFunction | null = null;
  ip = 0;
  /** The embedder's cast the VM runs (HostContext.cast): set through `vm.hostCast` around each run. */
  cast: unknown = null;

  suspend(): void {
    this.suspendRequested = true;
  }

  get line(): number {
    const fn = this.fn;
    if (fn === null) return 0;
    return fn.lines[Math.max(0, Math.min(this.ip - 1, fn.lines.length - 1))] ?? 0;
  }

  get remainingFuel(): number {
    return Math.max(0, this.fiber?.fuel ?? Infinity);
  }

  get maxWait(): number {
    return this.fiber?.budgets.maxWait ?? Infinity;
  }

  chargeFuel(amount: number): void {
    const fiber = this.fiber;
    if (fiber === null || !(amount > 0)) return;
    fiber.fuel -= amount;
    if (fiber.fuel < 0) throw new BudgetExceeded('fuel', budgetMessage('fuel', fiber.budgets, fiber.runKind));
  }

  chargeHeap(amount: number): void {
    const fiber = this.fiber;
    if (fiber === null || !(amount > 0)) return;
    fiber.heapUsed += amount;
    // The stack top and frame count are the calling instruction's: every call out writes them first (MEASURABLE, vm/instructions/define.ts).
    if (fiber.heapUsed > fiber.budgets.maxHeap) heapOverflow(fiber, fiber.fuel, fiber.sp, fiber.frameCount);
  }

  chargeOutput(chars: number): void {
    const fiber = this.fiber;
    if (fiber === null || !(chars > 0)) return;
    fiber.outputUsed += chars;
    if (fiber.outputUsed > fiber.budgets.maxOutput) throw new BudgetExceeded('output', budgetMessage('output', fiber.budgets, fiber.runKind));
  }

  checkWait(seconds: number): void {
    const fiber = this.fiber;
    if (fiber === null) return;
    if (!(seconds <= fiber.budgets.maxWait)) throw new BudgetExceeded('wait', budgetMessage('wait', fiber.budgets, fiber.runKind));
  }

  makeList(items: readonly Value[]): Value {
    this.chargeHeap(HEAP_COST.list + items.length);
    this.chargeFuel(items.length);
    return new ObjList(items.map((v) => (v === undefined ? null : v)));
  }
}
