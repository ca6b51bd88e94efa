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

/**
 * How much fuel a function spends on the interpreter (its calls and its loops'
 * back edges, as charged) before it is compiled (tier `auto`): in proportion
 * to its size, because compiling costs about 15 µs per bytecode word, so a
 * spell cannot buy a large compile with little fuel (docs/security.md).
 */
export const FUEL_BEFORE_COMPILING_PER_WORD = 500;
export const MIN_FUEL_BEFORE_COMPILING = 2_000;

export function fuelBeforeCompiling(words: number): number {
  return Math.max(MIN_FUEL_BEFORE_COMPILING, FUEL_BEFORE_COMPILING_PER_WORD * words);
}

/**
 * Frames deeper than this run on the interpreter: compiled frames nest on the
 * JS stack (two or three JS frames per call), which is far smaller than a
 * budget may allow (the interpreter's frames are arrays on the fiber).
 */
export const COMPILED_DEPTH_LIMIT = 200;

/** The interpreter counts one loop back edge in this many (for them all) towards compiling. */
export const BACK_EDGE_SAMPLE = 128;
