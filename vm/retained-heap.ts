/**
 * What a fiber keeps alive, in heap units (vm/costs.ts): everything
 * reachable from its value stack and its frames' closures — lists, maps,
 * instances with their classes, closures with their upvalues, bound methods,
 * strings — each object counted once, at the units its allocation is charged
 * (a list 4 + one per element, a string its length, a class 32 + 2 per
 * method + 2 per field of each shape it made …). Functions (module code),
 * host functions and host objects (entities) count nothing: they are the
 * module's and the world's. A string counts its length every time it is
 * reached (strings are values, not objects with an identity here), so the
 * count never falls short of what is kept.
 *
 * Measured in two places (docs/security.md, "Slices and what a cast keeps"):
 * - when a cast waits (VM `suspend`): what it keeps across the wait, its
 *   `fiber.retained`. The slice's fuel pays for the walk, 1 per value
 *   visited; the next slice's heap count starts from it, and a world counts
 *   it against `maxWorldHeap` while the cast waits (runtime/world-memory.ts);
 * - when a fiber whose heap budget counts what it retains (the CLI's
 *   `cantrip run`: `fiber.retainedRoots` set) reaches `maxHeap`: its roots and
 *   the module's globals are measured, charged as fuel, and only more than
 *   `maxHeap` retained ends it (`heapOverflow`).
 */

import { BudgetExceeded, budgetMessage } from './budgets.js';
import { HEAP_COST } from './costs.js';
import type { Fiber } from './fiber.js';
import { ObjMap } from './map-object.js';
import { ObjBoundMethod, ObjClass, ObjClosure, ObjInstance, ObjList, ObjUpvalue } from './objects.js';
import type { Value } from './value.js';

/** A measurement's result: heap units reachable, and values visited (the fuel it costs). */
export interface RetainedCount {
  units: number;
  visits: number;
}

/** Objects already counted in the current measurement (cleared after each, so it keeps nothing alive). */
const seen = new Set<object>();
/** Values still to visit (emptied after each measurement). */
const pending: (Value | ObjUpvalue)[] = [];

/**
 * Measure what `fiber` keeps alive (and `extraRoots`, when given) into `out`.
 * Stops once more than `maxVisits` values were visited and returns false
 * (the walk costs more fuel than is left); true when the count is complete.
 */
export function measureRetained(fiber: Fiber, extraRoots: readonly Value[] | null, maxVisits: number, out: RetainedCount): boolean {
  const stack = fiber.stack;
  for (let i = 0; i < fiber.sp; i++) pending.push(stack[i]!);
  for (let i = 0; i < fiber.frameCount; i++) pending.push(fiber.frameClosures[i]!);
  if (extraRoots !== null) for (const v of extraRoots) pending.push(v);
  let units = 0;
  let visits = 0;
  let complete = true;
  while (pending.length > 0) {
    if (++visits > maxVisits) {
      complete = false;
      break;
    }
    units += unitsOf(pending.pop()!);
  }
  pending.length = 0;
  seen.clear();
  out.units = units;
  out.visits = visits;
  return complete;
}

/** The units of one value itself (an object only the first time it is seen); what it holds is queued. */
function unitsOf(value: Value | ObjUpvalue): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null || seen.has(value)) return 0;
  seen.add(value);
  if (value instanceof ObjList) {
    for (const item of value.items) pending.push(item);
    return HEAP_COST.list + value.items.length;
  }
  if (value instanceof ObjMap) {
    for (const [key, item] of value.pairs()) pending.push(key, item);
    return HEAP_COST.map + HEAP_COST.mapEntry * value.size;
  }
  if (value instanceof ObjInstance) return instanceUnits(value);
  if (value instanceof ObjClosure) {
    for (const upvalue of value.upvalues) pending.push(upvalue);
    // The VM's entry trampolines (function index -1) are the VM's, not the cast's.
    return value.fn.index < 0 ? 0 : HEAP_COST.closure + value.upvalues.length;
  }
  if (value instanceof ObjUpvalue) {
    pending.push(value.cells[value.index]!);
    return HEAP_COST.upvalue;
  }
  if (value instanceof ObjClass) return classUnits(value);
  if (value instanceof ObjBoundMethod) {
    pending.push(value.receiver);
    if (value.method instanceof ObjClosure) pending.push(value.method);
    return HEAP_COST.boundMethod;
  }
  // Functions, host functions, entities and other host objects: the module's and the world's.
  return 0;
}

function instanceUnits(instance: ObjInstance): number {
  pending.push(instance.klass);
  if (instance.dict !== null) {
    for (const item of instance.dict.values()) pending.push(item);
    return HEAP_COST.instance + HEAP_COST.field * instance.dict.size;
  }
  for (const item of instance.values) pending.push(item);
  return HEAP_COST.instance + HEAP_COST.field * instance.values.length;
}

function classUnits(klass: ObjClass): number {
  for (const method of klass.methods.values()) pending.push(method);
  if (klass.superclass !== null) pending.push(klass.superclass);
  return HEAP_COST.class + HEAP_COST.method * klass.methods.size + HEAP_COST.shapeField * klass.shapeFields;
}

/** The one result object the VM's measurements reuse. */
const count: RetainedCount = { units: 0, visits: 0 };

/**
 * A cast is about to wait: measure what it keeps into `fiber.retained`,
 * paid from `fuel` (the slice's fuel left, which it returns less the walk).
 * A 'fuel' budget error when the walk costs more than is left, a 'heap' one
 * when it keeps more than `maxHeap` across the wait.
 */
export function measureAtWait(fiber: Fiber, fuel: number): number {
  if (!measureRetained(fiber, null, fuel, count)) {
    fiber.fuel = -1;
    throw outOfFuel(fiber);
  }
  fiber.retained = count.units;
  if (count.units > fiber.budgets.maxHeap) {
    throw new BudgetExceeded('heap', keepsTooMuchMessage(fiber));
  }
  return fuel - count.visits;
}

/**
 * The fiber's heap count (`heapUsed`) passed `maxHeap`. Counted by
 * allocation (the default): the heap budget error. Counted by what is
 * retained (`fiber.retainedRoots` set): measure what it keeps now, paid
 * from `fuel` — more than `maxHeap` is the heap error, else the count
 * restarts from what it keeps. Returns the fuel left.
 */
export function heapOverflow(fiber: Fiber, fuel: number): number {
  const roots = fiber.retainedRoots;
  if (roots === null) throw new BudgetExceeded('heap', budgetMessage('heap', fiber.budgets, fiber.runKind));
  if (!measureRetained(fiber, roots, fuel, count)) {
    fiber.fuel = -1;
    throw outOfFuel(fiber);
  }
  fiber.heapUsed = count.units;
  if (count.units > fiber.budgets.maxHeap) throw new BudgetExceeded('heap', keepsTooMuchMessage(fiber));
  return fuel - count.visits;
}

function outOfFuel(fiber: Fiber): BudgetExceeded {
  return new BudgetExceeded('fuel', budgetMessage('fuel', fiber.budgets, fiber.runKind));
}

/** The heap error for what a fiber keeps (at a wait, or measured under a retained heap budget). */
function keepsTooMuchMessage(fiber: Fiber): string {
  return `Out of memory: the ${fiber.runKind} keeps more than ${fiber.budgets.maxHeap} heap units alive (list elements, string characters, objects).`;
}
