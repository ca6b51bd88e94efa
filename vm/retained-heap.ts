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
 *   `fiber.retained`. The slice's fuel pays for the walk (1 per object
 *   counted and 1 per 8 values read: vm/costs.ts MEASURE_COST); the next
 *   slice's heap count starts from it, and a world counts
 *   it against `maxWorldHeap` while the cast waits (runtime/world-memory.ts);
 * - when a fiber whose heap budget counts what it retains (the CLI's
 *   `cantrip run`: `fiber.retainedRoots` set) reaches `maxHeap`: its roots and
 *   the module's globals are measured, charged as fuel, and only more than
 *   `maxHeap` retained ends it (`heapOverflow`).
 *
 * The roots a measurement reads are the same in both tiers, exactly:
 * - at a wait, the fiber's stack below `fiber.sp` and its `fiber.frameCount`
 *   frames' closures (`suspend` writes both first);
 * - at a heap charge past `maxHeap`, the globals, the closures of the frames
 *   the run is in, and the stack as the plain interpreter (one instruction a
 *   dispatch) holds it when the charging instruction starts: its inputs
 *   included, nothing above them. The HEAP macro's slow road passes that top
 *   and the frame count (`heapOverflow(fiber, fuel, top, fc)`), after writing
 *   there the values a superinstruction or compiled block holds in locals
 *   (vm/generator/case-writer.ts); a frame body charges before it moves sp;
 * - at a charge a host function or built-in method makes (`ctx.chargeHeap`),
 *   the same at the calling instruction's start (its receiver and arguments
 *   included): MEASURABLE writes `fiber.sp` and `fiber.frameCount` before
 *   each call out, and compiled code holding a host call's values in locals
 *   writes them to the stack first when `fiber.retainedRoots` is set and the
 *   host may charge the heap (`ObjHostFunction.chargesHeap`).
 */

import { BudgetExceeded, budgetMessage } from './budgets.js';
import { HEAP_COST, MEASURE_COST } from './costs.js';
import type { Fiber } from './fiber.js';
import { ObjMap } from './map-object.js';
import { ObjBoundMethod, ObjClass, ObjClosure, ObjInstance, ObjList, ObjUpvalue } from './objects.js';
import type { Value } from './value.js';

/** A measurement's result: heap units reachable, values read and objects counted (what the walk did). */
export interface RetainedCount {
  units: number;
  visits: number;
  objects: number;
}

/** How a measurement ended: complete, or stopped because it would cost more fuel than is left, or count more than the limit. */
export type MeasureEnd = 'complete' | 'fuel' | 'limit';

/** The fuel a measurement that read `visits` values and counted `objects` objects costs (vm/costs.ts MEASURE_COST). */
export function measureFuel(visits: number, objects: number): number {
  return Math.ceil(visits / MEASURE_COST.valuesPerFuel) + objects * MEASURE_COST.perObject;
}

/** An object the walk may meet: the VM's own carry the mark of the last measurement that counted them. */
interface Markable {
  measureMark?: number;
}

/** This measurement's mark: an object whose `measureMark` equals it was counted already. */
let epoch = 0;
/** Objects still to visit (emptied after each measurement, so it keeps nothing alive). */
const pending: Markable[] = [];
/** Values read so far in the current measurement (an element, a field, an entry, a root). */
let visits = 0;
/** Objects counted so far in the current measurement. */
let objects = 0;

/**
 * Measure what `fiber` keeps alive — its stack below `top` and the closures
 * of its first `frames` frames — (and `extraRoots`, when given) into
 * `out`. Stops early — `'fuel'` — once the walk would cost more than
 * `fuel`, or — `'limit'` — once it counted more than `limit` units, so a
 * measurement never costs more than the fuel left nor much more than
 * `limit` pays for.
 */
export function measureRetained(fiber: Fiber, top: number, frames: number, extraRoots: readonly Value[] | null, fuel: number, limit: number, out: RetainedCount): MeasureEnd {
  visits = 0;
  objects = 0;
  epoch++;
  let units = valuesUnits(fiber.stack, top);
  for (let i = 0; i < frames; i++) units += valueUnits(fiber.frameClosures[i]!);
  if (extraRoots !== null) units += valuesUnits(extraRoots, extraRoots.length);
  let end: MeasureEnd = 'complete';
  for (;;) {
    if (measureFuel(visits, objects) > fuel) end = 'fuel';
    else if (units > limit) end = 'limit';
    const next = pending.pop();
    if (end !== 'complete' || next === undefined) break;
    units += objectUnits(next);
  }
  pending.length = 0;
  out.units = units;
  out.visits = visits;
  out.objects = objects;
  return end;
}

/** The units of `count` values themselves (strings their length); objects not seen yet are queued. */
function valuesUnits(values: readonly Value[], count: number): number {
  let units = 0;
  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    if (typeof value === 'string') units += value.length;
    else if (typeof value === 'object' && value !== null && (value as Markable).measureMark !== epoch) pending.push(value as Markable);
  }
  visits += count;
  return units;
}

function valueUnits(value: Value | ObjUpvalue): number {
  visits++;
  if (typeof value === 'string') return value.length;
  if (typeof value === 'object' && value !== null && (value as Markable).measureMark !== epoch) pending.push(value as Markable);
  return 0;
}

/** The units of one object itself (0 when counted already); what it holds is read here and queued. */
function objectUnits(value: Markable): number {
  // Entities, functions and host functions have no mark: they count nothing and hold nothing the walk follows.
  if (value.measureMark === epoch || value.measureMark === undefined) return 0;
  value.measureMark = epoch;
  objects++;
  if (value instanceof ObjList) return HEAP_COST.list + value.items.length + valuesUnits(value.items, value.items.length);
  if (value instanceof ObjInstance) return instanceUnits(value);
  if (value instanceof ObjMap) {
    let units = HEAP_COST.map + HEAP_COST.mapEntry * value.size;
    for (const [key, item] of value.pairs()) units += valueUnits(key) + valueUnits(item);
    return units;
  }
  if (value instanceof ObjClosure) {
    // The VM's entry trampolines (function index -1) are the VM's, not the cast's.
    if (value.fn.index < 0) return 0;
    for (const upvalue of value.upvalues) valueUnits(upvalue);
    return HEAP_COST.closure + value.upvalues.length;
  }
  if (value instanceof ObjUpvalue) return HEAP_COST.upvalue + valueUnits(value.cells[value.index]!);
  if (value instanceof ObjClass) return classUnits(value);
  if (value instanceof ObjBoundMethod) {
    if (value.method instanceof ObjClosure) valueUnits(value.method);
    return HEAP_COST.boundMethod + valueUnits(value.receiver);
  }
  // Functions, host functions, entities and other host objects: the module's and the world's.
  return 0;
}

function instanceUnits(instance: ObjInstance): number {
  let units = valueUnits(instance.klass);
  if (instance.dict !== null) {
    for (const item of instance.dict.values()) units += valueUnits(item);
    return units + HEAP_COST.instance + HEAP_COST.field * instance.dict.size;
  }
  // values may be longer than the field count (preallocated slots): only the shape's slots are fields.
  const fields = instance.shape.names.length;
  return units + HEAP_COST.instance + HEAP_COST.field * fields + valuesUnits(instance.values, fields);
}

function classUnits(klass: ObjClass): number {
  for (const method of klass.methods.values()) valueUnits(method);
  if (klass.superclass !== null) valueUnits(klass.superclass);
  return HEAP_COST.class + HEAP_COST.method * klass.methods.size + HEAP_COST.shapeField * klass.shapeFields;
}

/** The one result object the VM's measurements reuse. */
const count: RetainedCount = { units: 0, visits: 0, objects: 0 };

/**
 * Measure `fiber` (with `extraRoots`) against its maxHeap, paid from
 * `fuel`; returns the fuel it cost. A 'heap' budget error when it keeps more
 * than maxHeap. When the walk would cost more than the fuel left, the fuel
 * is spent (fiber.fuel -1) and the error is `unpaid`'s.
 */
function measureCharged(fiber: Fiber, top: number, frames: number, extraRoots: readonly Value[] | null, fuel: number, unpaid: (fiber: Fiber) => BudgetExceeded): number {
  const end = measureRetained(fiber, top, frames, extraRoots, fuel, fiber.budgets.maxHeap, count);
  if (end === 'fuel') {
    fiber.fuel = -1;
    throw unpaid(fiber);
  }
  if (end === 'limit') throw new BudgetExceeded('heap', keepsMoreThan(fiber, `more than ${fiber.budgets.maxHeap} heap units`));
  return measureFuel(count.visits, count.objects);
}

/** The heap error for a slice's allocations: since a wait, counted on top of what the cast kept across it. */
function allocatedTooMuch(fiber: Fiber): string {
  if (fiber.retained === 0) return budgetMessage('heap', fiber.budgets, fiber.runKind);
  return `Out of memory: the ${fiber.runKind} holds more than ${fiber.budgets.maxHeap} heap units (${fiber.retained} kept across its last wait, the rest allocated since: list elements, string characters, objects).`;
}

/** The heap error for what a fiber keeps alive (`what`: how much). */
function keepsMoreThan(fiber: Fiber, what: string): string {
  return `Out of memory: the ${fiber.runKind} keeps ${what} alive (list elements, string characters, objects).`;
}

/**
 * A cast is about to wait: measure what it keeps into `fiber.retained`,
 * paid from `fuel` (the slice's fuel left; returns it less the walk). A cast
 * may keep across a wait at most maxHeap, and at most what its fuel left
 * can pay to measure: past either, the memory error.
 */
export function measureAtWait(fiber: Fiber, fuel: number): number {
  const cost = measureCharged(fiber, fiber.sp, fiber.frameCount, null, fuel, keepsMoreThanFuelMeasures);
  fiber.retained = count.units;
  return fuel - cost;
}

function keepsMoreThanFuelMeasures(fiber: Fiber): BudgetExceeded {
  return new BudgetExceeded('heap', keepsMoreThan(fiber, `more than its fuel left can pay to measure at a wait (${count.units} heap units counted when it ran out)`));
}

function outOfFuel(fiber: Fiber): BudgetExceeded {
  return new BudgetExceeded('fuel', budgetMessage('fuel', fiber.budgets, fiber.runKind));
}

/** What a restored fiber keeps (the host restoring it pays: no budget), for its `retained`. */
export function measureRestored(fiber: Fiber): number {
  measureRetained(fiber, fiber.sp, fiber.frameCount, null, Infinity, Infinity, count);
  return count.units;
}

/**
 * The fiber's heap count (`heapUsed`) passed `maxHeap`. Counted by
 * allocation (the default): the heap budget error. Counted by what is
 * retained (`fiber.retainedRoots` set): measure what it keeps now — its
 * stack below `top`, its first `frames` frames' closures and the roots
 * (see the header for which top and frames a charge passes) — paid from
 * `fuel` (the fuel left): more than `maxHeap` is the heap error, else the
 * count restarts from what it keeps. Returns the fuel the measuring cost,
 * for the caller to take from what is left; `fiber.fuel` is left at what
 * remains (compiled code keeps it there; the interpreter's own `fuel` is
 * the same number).
 */
export function heapOverflow(fiber: Fiber, fuel: number, top: number, frames: number): number {
  const roots = fiber.retainedRoots;
  if (roots === null) throw new BudgetExceeded('heap', allocatedTooMuch(fiber));
  const cost = measureCharged(fiber, top, frames, roots, fuel, outOfFuel);
  fiber.heapUsed = count.units;
  fiber.fuel = fuel - cost;
  return cost;
}
