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

/**
 * A compiled loop paused at its header (every LOOP_PAUSE back edges), its
 * registers in the fiber: runCompiledFrame calls it again there. Called now
 * and then rather than once, the loop is optimized by V8 as a function (not
 * only on the stack, OSR, whose code a later call cannot use), and that code
 * serves the loop's later runs; its pause runs its way out (vm/compiled/
 * function-source.ts), so V8 has seen that code when it optimizes the loop.
 */
export const AGAIN = 3;

/**
 * A compiled loop returns AGAIN at this many back edges. At 512, V8 optimized
 * the loop's function before its rarer paths had run (a map's key 0 stored
 * again, after a thousand rounds), their first run threw that code away, and
 * the loop went on in code compiled on the stack (OSR): maps' loop settled at
 * 20–21 ms in 3 processes of 6 and at 16 in the others. At 4096 it settled
 * at 16–17 ms in 5 of 5, no code thrown away, and no other program of the
 * language suite moved (at 2048: thrown away in 5 of 5, 17–21 ms). Whole
 * processes of the book's benchmarks, whose loops run at the top level, may
 * pay for it: method_call, invocation and properties measured 1–7% slower
 * (farm-bench, 8 runs each, within their run-to-run spread).
 */
export const LOOP_PAUSE = 4096;

export type CompiledStatus = typeof RETURNED | typeof FINISHED | typeof UNWOUND | typeof AGAIN;

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
 * What one compile may take (a function whole, or a loop of it alone), in
 * bytecode words. Writing the source and V8's compile of it grow with the
 * words (faster than linearly past a few thousand: 12,000 `else if`s, ~108,000
 * words, took 22 s to write as 27 M characters, and V8's own compile of it ran
 * out of stack); a compile is one stall of the call that asks for it. A
 * function past it stays on the interpreter, and its loops are compiled alone
 * where each is within it (docs/compiled-tier.md, "What a compile may cost").
 */
export const MAX_COMPILE_WORDS = 4_096;

/**
 * One compile's words within a slice of the VM's fuel: at most this many fuel
 * per word. The cost model lets a unit of fuel cost up to 50× a plain loop's
 * ~5 ns on the interpreter (docs/security.md), 250 ns; writing and evaluating
 * a compile measured up to ~100 µs per word (the word-heavy `print`s of a
 * long `else if` chain, loaded machine): 400 fuel a word keeps one compile
 * within what a slice of that fuel may cost. A world's 1,000,000 fuel allows
 * 2,500 words; the VM's default 10,000,000 and the CLI's unlimited fuel,
 * MAX_COMPILE_WORDS.
 */
export const COMPILE_FUEL_PER_WORD = 400;

/** The most words one compile of a VM whose casts get `fuel` may take. */
export function compileWordsFor(fuel: number): number {
  return Math.min(MAX_COMPILE_WORDS, Math.floor(fuel / COMPILE_FUEL_PER_WORD));
}

/** The longest source one compile may write (characters); a longer one is dropped, the code staying on the interpreter. */
export const MAX_COMPILE_SOURCE_CHARS = 1_000_000;

/**
 * The source a VM may compile in all (characters): what V8 holds for its
 * compiled code (the source, its bytecode and machine code) grows with it.
 * Past it, the VM compiles nothing more (a VM's limit, as the process's
 * caches of sources and functions are 16 M characters each).
 */
export const MAX_VM_COMPILED_CHARS = 16_000_000;

/**
 * Frames deeper than this run on the interpreter: compiled frames nest on the
 * JS stack (two or three JS frames per call), which is far smaller than a
 * budget may allow (the interpreter's frames are arrays on the fiber).
 */
export const COMPILED_DEPTH_LIMIT = 200;

/**
 * The JavaScript stack, in 8-byte slots, that compiled frames of one function
 * may take together: a function whose frame takes `slots` (frameSlots,
 * vm/compiled/frame-slots.ts) is entered compiled only below
 * compiledDepthLimit(slots) frames. A frame of a function that holds 300
 * values in locals (a list literal of 300) takes ~5 KB of V8's stack; 200 of
 * them overflowed Node's ~1 MB stack, and the RangeError was reported as the
 * heap budget. Compiled frames at depth d each take less than
 * COMPILED_STACK_SLOTS / d, so however their sizes mix, together they take at
 * most COMPILED_STACK_SLOTS × (1 + ln COMPILED_DEPTH_LIMIT) ≈ 6.3 × 64 KB =
 * 400 KB (docs/compiled-tier.md, "Deep recursion").
 */
export const COMPILED_STACK_SLOTS = 8192;

/** How deep (in frames of the fiber) a function whose compiled frame takes `slots` of the JS stack may be entered compiled. */
export function compiledDepthLimit(slots: number): number {
  return Math.max(1, Math.min(COMPILED_DEPTH_LIMIT, Math.floor(COMPILED_STACK_SLOTS / Math.max(1, slots))));
}

/** The interpreter counts one loop back edge in this many (for them all) towards compiling. */
export const BACK_EDGE_SAMPLE = 128;
