/**
 * A cast loop: one spell cast many times in a row from a hot loop — a world's
 * tick phase, a game's per-entity update — the way Wren's call handles and
 * Lua's registry references let a host skip the lookup on every call. Made
 * by `VM.castLoop(spell)`.
 *
 * `castFast` already allocates nothing per cast, but each cast still takes a
 * fiber from the VM's pool, resets it, and clears its stack when it returns.
 * A loop keeps one fiber of its own between runs instead: a run resets only
 * what a run changes (fuel, heap and output counts, state), and the stack is
 * cleared once, by `close()`, not after every cast. Until then the loop's
 * stack may still hold values the last cast left (never read by the next
 * cast: the interpreter writes a slot before it reads it).
 *
 * A run reports in the VM's one `RunOutcome`, as `castFast` does. A cast that
 * waits or pauses takes the fiber with it (`outcome.fiber`); the loop makes a
 * new one for its next run. Whenever the loop cannot take its short road —
 * a debugger is attached, the loop is already running (a host function cast
 * through it again), the argument count is not the spell's, the fiber budget
 * is spent, the script has not run — `run` goes through `castFast` instead,
 * so every message, budget and event is exactly what a plain cast gives.
 */

import type { Budgets } from './budgets.js';
import type { Fiber } from './fiber.js';
import type { ObjClosure } from './objects.js';
import type { RunOutcome } from './run-outcome.js';
import type { Value } from './value.js';

/** What a loop needs from its VM (VM.castLoop passes its own internals). */
export interface LoopRunner {
  run(loop: FastLoop, args: readonly Value[]): RunOutcome;
  runUnlessDone(loop: FastLoop, args: readonly Value[]): RunOutcome | null;
  runPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null;
  runHeldPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null;
  release(loop: FastLoop): void;
  close(loop: FastLoop): void;
}

export class FastLoop {
  /**
   * The loop's own fiber between runs (null before the first run, after close(), and after a cast took it).
   * A spare fiber object of the VM's pool: close() gives it back, and it may then serve another run.
   */
  fiber: Fiber | null = null;
  /** True while a run is on the JS stack (a nested run through the same loop takes the general road). */
  busy = false;
  /**
   * True while the loop holds its fiber open between runs of a batch (runPairInBatch): the fiber
   * stays running and marked live (the VM counts it among its live fibers only while it runs), so
   * a run sets only its fuel and budgets and enters the spell. Any other kind of run, and close(),
   * let go of it first.
   */
  holding = false;

  constructor(
    private readonly runner: LoopRunner,
    /** The spell cast. */
    readonly spell: string,
    /** The closure cast, or null when the module has no such spell (each run then fails as castFast would). */
    readonly closure: ObjClosure | null,
    /** The spell's parameter count: runs with another argument count take the general road (and fail as it says). */
    readonly arity: number,
    /** Budgets for every run: the VM's defaults with the loop's overrides. */
    readonly budgets: Readonly<Budgets>,
    /** The overrides the loop was made with, for the general road. */
    readonly overrides: Partial<Budgets> | undefined,
  ) {
    this.startFuel = closure === null ? 0 : budgets.fuel - closure.fn.callFuel;
    this.maxFibers = budgets.maxFibers;
  }

  /** `budgets.maxFibers`, read on every run (one load instead of two). */
  readonly maxFibers: number;

  /** The fuel a run starts with: the budget less the spell's call (charged as a CALL would). */
  readonly startFuel: number;

  /** Cast the spell with `args` (copied onto the fiber's stack: the array may be reused at once). */
  run(args: readonly Value[]): RunOutcome {
    if (this.holding && !this.busy) this.runner.release(this);
    return this.runner.run(this, args);
  }

  /**
   * `run` for a caller that does not read the result of a cast that
   * finished (a world's tick phase): null when the cast finished ('done'),
   * else the outcome `run` would give (failed, suspended, paused — or done,
   * when the run took the general road). Skips filling the outcome for
   * every cast that finishes; the result is dropped.
   */
  runUnlessDone(args: readonly Value[]): RunOutcome | null {
    if (this.holding && !this.busy) this.runner.release(this);
    return this.dropResultIfDone(this.runner.runUnlessDone(this, args));
  }

  /** `runUnlessDone([first, second])` without the array: for a spell of two parameters (a tick spell's `self, dt`). */
  runPairUnlessDone(first: Value, second: Value): RunOutcome | null {
    if (this.holding && !this.busy) this.runner.release(this);
    return this.dropResultIfDone(this.runner.runPair(this, first, second));
  }

  /**
   * `runPairUnlessDone` for one run of a batch of runs in a row (a world's
   * tick phase), which `close()` ends: every run reports exactly as
   * runPairUnlessDone does, but between two runs of the batch the loop
   * holds its fiber open (`holding`) — running, marked live, its frame 0
   * in place — so a run that follows one that finished resets
   * only the fuel and the budgets a run spends and enters the compiled
   * spell through its loop entry (ObjFunction.loopEntry), which takes the
   * arguments as JavaScript parameters. The checks a run may not skip are
   * made on every run: a debugger attached, the fiber budget, a nested run.
   * A run that does not finish, a spell not compiled (yet), and any other
   * kind of run end the hold; a later finished run takes it again.
   */
  runPairInBatch(first: Value, second: Value): RunOutcome | null {
    return this.runner.runHeldPair(this, first, second);
  }

  /** A run that finished on the loop's fiber (null) lets go of its result (stored only when there is one to drop). */
  private dropResultIfDone(out: RunOutcome | null): RunOutcome | null {
    if (out === null) {
      const fiber = this.fiber!;
      if (fiber.result !== null) fiber.result = null;
    }
    return out;
  }

  /** Clear the loop's stack and give its storage back to the VM's pool. The loop can run again after. */
  close(): void {
    if (this.holding && !this.busy) this.runner.release(this);
    this.runner.close(this);
  }
}
