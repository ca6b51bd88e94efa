/**
 * The cost table: what each allocation charges the heap budget, in units of
 * about one value slot (8 bytes; a string character is one unit). The VM,
 * the builtins and the runtime read these numbers here and nowhere else, and
 * docs/security.md ("The accounting rules") explains them.
 */

export const HEAP_COST = {
  /** A list object, on top of one unit per element. */
  list: 4,
  /** A map object, on top of `mapEntry` per entry. */
  map: 4,
  /** Each entry a map gains (its key and its value). */
  mapEntry: 2,
  /** A closure object, on top of one unit per upvalue slot. */
  closure: 4,
  /** Each upvalue object a closure creates (an open variable captured for the first time). */
  upvalue: 4,
  /** A class, its method table and its root shape. */
  class: 32,
  /** Each method table entry (METHOD, and every method INHERIT copies down). */
  method: 2,
  /** An instance, on top of one unit per field. */
  instance: 4,
  /** Each field an instance gains. */
  field: 1,
  /** A new shape (hidden class), per field it lists (its slot map and name list). */
  shapeField: 2,
  /** A bound method (`obj.method` read without calling it). */
  boundMethod: 4,
} as const;

/**
 * Measuring what a cast keeps alive (at a wait, vm/retained-heap.ts) costs
 * fuel for the walk: `perObject` per object counted (a list, map,
 * instance, closure, class, upvalue or bound method: marking it and reading
 * its parts, often a cache miss) and 1 per `valuesPerFuel` values read
 * (elements, fields, entries, stack slots: a type check each). Text costs
 * nothing more for its length. A cast keeping a list of 1,000,000 numbers
 * pays 125,002 fuel at each wait; what its fuel left cannot pay to measure,
 * it may not keep (the memory error).
 */
export const MEASURE_COST = {
  perObject: 2,
  valuesPerFuel: 8,
} as const;
