/**
 * How compiled code hands control back (vm/compiled/): the numbers a compiled
 * function returns, and when a function is hot enough to compile.
 */

/** The function returned; its result is on the stack and its frame popped (the registers are in the fiber). */
export const RETURNED = 0;
/** The fiber's first frame returned: the run is over. */
export const FINISHED = 1;
/** The fiber's state is saved in its frames: it waits (`state === 'suspended'`), or the interpreter goes on from the innermost frame. */
export const UNWOUND = 2;

export type CompiledStatus = typeof RETURNED | typeof FINISHED | typeof UNWOUND;

/** Calls plus loop back edges after which the interpreter compiles a function (tier `auto`). */
export const HOT = 1000;

/** Frames deeper than this run in the interpreter (compiled frames nest on the JS stack, which is smaller than the budget allows). */
export const COMPILED_DEPTH_LIMIT = 1000;
