/**
 * Which tier ran a cast, in words for the console. A spell starts on the
 * interpreter; once hot, its function — or only a hot loop of it — is
 * compiled to JavaScript, possibly in the middle of the cast (the loop then
 * finishes as compiled code). So the tier before the cast is not the whole
 * story: the VM's compile count before and after says whether code was
 * compiled while the cast ran.
 */

/** What the VM held for a spell at one moment. */
export interface TierProbe {
  /** The spell's function is compiled whole. */
  readonly compiled: boolean;
  /** Bytecode words the VM had compiled so far (all functions and loops). */
  readonly words: number;
}

/**
 * "ran on …" for a cast. `compiledInEarlierCast` says an earlier cast of
 * the same spell on the same VM compiled code (a hot loop, or a function it
 * calls) while the spell itself stayed on the interpreter: that code runs
 * compiled again whenever it is hot.
 */
export function describeTier(before: TierProbe, after: TierProbe, compiledInEarlierCast: boolean): string {
  if (before.compiled) return 'ran on compiled code';
  if (after.words > before.words) {
    return after.compiled
      ? 'ran on both: the interpreter, then compiled code — the spell got hot and was compiled mid-cast'
      : 'ran on both: the interpreter, then compiled code — a hot loop or function was compiled mid-cast';
  }
  return compiledInEarlierCast
    ? 'ran on the interpreter, and on the code an earlier cast compiled where that code was hot'
    : 'ran on the interpreter';
}
