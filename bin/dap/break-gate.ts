/**
 * The break handler a VM calls at every line while `cantrip dap` debugs it.
 * The VM's Debugger decides where a fiber stops (breakpoints, steps); this
 * gate adds what an adapter on one thread needs around it:
 *
 * - only the fibers being debugged stop (a cast launch: the one cast, while
 *   the world's other casts run through its breakpoints, as the playground does);
 * - a fiber that has run for a slice of time stops too ("yielded"), so the
 *   adapter reads the editor's messages (pause, disconnect) and then goes on
 *   where it was: a spell in an endless loop never makes the adapter deaf;
 * - each stop is recorded with the cast it belongs to, since the world may
 *   pause several fibers in one step.
 */
import { runningCast, type CastContext } from '../../runtime/host/host-api.js';
import type { Debugger } from '../../vm/debugger.js';
import type { Fiber } from '../../vm/fiber.js';
import type { ObjFunction } from '../../vm/objects.js';
import type { BreakHandler, VM } from '../../vm/vm.js';

/** A fiber the VM paused: where, and whether the debugger meant it or the time slice ran out. */
export interface PauseRecord {
  readonly fiber: Fiber;
  readonly vm: VM;
  readonly debugger: Debugger;
  readonly yielded: boolean;
  /** The world's context of the cast (null outside a world): wait() sets its wake time, host functions read its world. */
  readonly cast: CastContext | null;
}

/** How long a fiber runs before it yields to the adapter's messages. */
const SLICE_MS = 20;
/** Lines between two looks at the clock (reading it at every line would cost more than the line). */
const LINES_PER_LOOK = 256;

/**
 * The time slice every gate of a session shares: started when the adapter
 * runs a fiber itself, over after SLICE_MS. Stopped while the world steps:
 * a cast the world runs is bounded by the world's fuel, and one yielding
 * mid-step would go on after the step, out of the order `cantrip sim` keeps.
 */
export class SliceClock {
  private startedAt = 0;
  private lines = 0;
  private running = false;

  start(): void {
    this.startedAt = performance.now();
    this.lines = 0;
    this.running = true;
  }

  stop(): void {
    this.running = false;
  }

  /** Whether the slice is over (looked at every LINES_PER_LOOK lines). */
  over(): boolean {
    if (!this.running || ++this.lines < LINES_PER_LOOK) return false;
    this.lines = 0;
    return performance.now() - this.startedAt > SLICE_MS;
  }
}

export class BreakGate implements BreakHandler {
  /** The world's context of each fiber debugged here, seen at its first line: a cast shown waiting (never stopped before) still has its wake time and its world. */
  private readonly casts = new WeakMap<Fiber, CastContext | null>();

  constructor(
    private readonly vm: VM,
    private readonly debugger_: Debugger,
    private readonly clock: SliceClock,
    /** Whether this fiber is one the session debugs. */
    private readonly debugs: (fiber: Fiber) => boolean,
    private readonly paused: (record: PauseRecord) => void,
  ) {}

  shouldPause(fiber: Fiber, fn: ObjFunction, pc: number, depth: number): boolean {
    if (!this.debugs(fiber)) return false;
    if (!this.casts.has(fiber)) this.casts.set(fiber, runningCast(this.vm));
    const stops = this.debugger_.shouldPause(fiber, fn, pc, depth);
    const yielded = !stops && this.clock.over();
    if (stops || yielded) this.paused({ fiber, vm: this.vm, debugger: this.debugger_, yielded, cast: this.castOf(fiber) });
    return stops || yielded;
  }

  /** The world's context of a fiber this gate has seen run, or null. */
  castOf(fiber: Fiber): CastContext | null {
    return this.casts.get(fiber) ?? null;
  }
}
