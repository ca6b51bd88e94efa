/** The options a VM is made with (`new VM(module, options)`). */

import type { Budgets } from './budgets.js';
import type { HostFunction } from './host.js';

export interface VMOptions extends Partial<Budgets> {
  /** Host functions the module may import; default CORE_HOST_FUNCTIONS. Embedders pass [...CORE_HOST_FUNCTIONS, ...theirs]. */
  hosts?: readonly HostFunction[];
  /** Where `print` goes; default console.log. */
  print?: (text: string) => void;
  /**
   * What `maxHeap` counts: `'allocated'` (the default) — what a slice
   * allocates, on top of what the cast kept across its last wait; or
   * `'retained'` — what a fiber keeps alive, globals included: reaching
   * `maxHeap` measures it (charged as fuel), and only more than `maxHeap`
   * kept ends the run. `cantrip run` uses `'retained'`, so a script that
   * allocates much and keeps little runs to the end.
   */
  heapCounts?: 'allocated' | 'retained';
  /**
   * Which tier runs the spells (docs/runtime.md, "The compiled tier"):
   * `'auto'` (the default) — the interpreter, and a function's compiled
   * JavaScript once it is hot (it spent 500 fuel per word of its bytecode, at
   * least 2,000, in calls and loop iterations; a hot loop of a function still
   * running on the interpreter is compiled on its own); `'compiled'`
   * — every function compiled before it first runs; `'interpreter'` — never
   * compiled. Results, output, errors, budgets and snapshots are the same in
   * every tier. Where the page forbids `new Function` (a strict
   * Content-Security-Policy), every tier runs on the interpreter.
   */
  tier?: Tier;
}

/** See VMOptions.tier. */
export type Tier = 'auto' | 'compiled' | 'interpreter';
