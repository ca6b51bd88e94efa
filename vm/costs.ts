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
 * Measuring what a cast keeps alive (at a wait, vm/retained-heap.ts) costs 1
 * fuel per this many heap units counted plus values visited: walks over
 * lists of numbers, instances or shared references all stay within the cost
 * fuzzer's bound per unit of fuel. A cast keeping 1,000,000 numbers in a
 * list pays 250,000 fuel at each wait; what its fuel left cannot pay to
 * measure, it may not keep (the memory error).
 */
export const MEASURE_PER_FUEL = 8;
