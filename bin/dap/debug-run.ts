/**
 * A program under the debugger: runs it, steps it, stops it, and says why.
 *
 * The VM pauses a fiber synchronously (vm/debugger.ts), so everything here
 * runs on the adapter's one thread in short slices: a fiber runs until it
 * stops at a line, yields (break-gate.ts) or leaves the VM (finished,
 * failed, waiting); then `settle` decides what the editor sees next. A cast
 * waiting in `wait` is paused in time: a step that ends in a wait stops
 * there, and continuing or stepping from it steps the world, tick by tick,
 * until the cast wakes (then a step stops at its next line). A pause request
 * while the world steps stops with the cast still waiting.
 * A scenario is stepped as `cantrip sim` steps it; each fiber a breakpoint
 * stops in one step is shown in turn.
 */
import { resolve } from 'node:path';
import type { CastContext } from '../../runtime/host/host-api.js';
import { Debugger, lineStarts, type FrameView, type FrameValues, type StepMode } from '../../vm/debugger.js';
import type { Fiber } from '../../vm/fiber.js';
import type { Value } from '../../vm/value.js';
import { EXIT } from '../exit-codes.js';
import { CLI_HOSTS } from '../hosts.js';
import { BreakGate, SliceClock, type PauseRecord } from './break-gate.js';
import type { EvaluationScope } from './evaluate.js';
import type { DebugProgram, LoadedSource } from './program.js';

export type StopReason = 'entry' | 'breakpoint' | 'step' | 'pause';

/** What the editor is told. */
export interface RunListener {
  stopped(reason: StopReason, description: string): void;
  /** The program ended with the exit code the CLI would give. */
  finished(exitCode: number): void;
  /** A runtime error, at a line of a file when it has one. */
  error(text: string, path: string | null, line: number | null): void;
}

/** A breakpoint as set: on the line asked for or the next with code, or why it is never hit. */
export interface BreakpointPlace {
  readonly verified: boolean;
  readonly line: number;
  readonly message?: string;
}

/** A loaded source with its debugger and the lines a stop can happen on. */
interface DebuggedSource extends LoadedSource {
  readonly debugger: Debugger;
  readonly gate: BreakGate;
  /** Lines where some function's code starts a line. */
  readonly codeLines: readonly number[];
  /** Of those, the lines only the top-level script has code on. */
  readonly scriptOnlyLines: ReadonlySet<number>;
}

/** The fiber the editor sees (stopped at a line, or waiting in time). */
interface Shown {
  readonly fiber: Fiber;
  readonly source: DebuggedSource;
  readonly cast: CastContext | null;
}

export class DebugRun {
  private readonly sources: DebuggedSource[];
  private readonly clock = new SliceClock();
  private shown: Shown | null = null;
  /** Fibers the VMs paused that the editor has not been shown yet (a world may pause several in one step). */
  private pending: PauseRecord[] = [];
  private running = false;
  private ended = false;
  private pauseRequested = false;
  /** The fiber stopped on entry: its first stop says 'entry'. */
  private entryFiber: Fiber | null = null;
  private entryTaken = false;
  /** A cast launch debugs the one fiber its cast runs on, adopted at its first line. */
  private castFiber: Fiber | null = null;
  private adopting = false;

  constructor(
    private readonly program: DebugProgram,
    private readonly options: { readonly stopOnEntry: boolean; readonly noDebug: boolean },
    private readonly listener: RunListener,
  ) {
    this.sources = program.sources.map((source) => this.attach(source));
  }

  get isRunning(): boolean {
    return this.running;
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  /** The name the editor's thread shows: the spell being cast, or the script's file. */
  get threadName(): string {
    const spell = this.shown?.fiber.spell ?? this.program.onlySpell;
    if (spell) return spell;
    return this.program.kind === 'scenario' ? 'world' : 'script';
  }

  private attach(source: LoadedSource): DebuggedSource {
    const dbg = new Debugger(source.vm);
    if (this.options.stopOnEntry && !this.options.noDebug) dbg.startMode = 'into';
    dbg.attach();
    const gate = new BreakGate(source.vm, dbg, this.clock, (fiber) => this.debugs(fiber), (record) => this.recordPause(record));
    source.vm.breakHandler = gate;
    const lines = new Map<number, boolean>();
    for (const fn of source.vm.runtimeFunctions) {
      for (const pc of lineStarts(fn.original, fn.lines)) {
        const line = fn.lines[pc]!;
        if (line > 0) lines.set(line, (lines.get(line) ?? true) && fn.index === 0);
      }
    }
    const codeLines = [...lines.keys()].sort((a, b) => a - b);
    const scriptOnlyLines = new Set([...lines].filter(([, scriptOnly]) => scriptOnly).map(([line]) => line));
    return { ...source, debugger: dbg, gate, codeLines, scriptOnlyLines };
  }

  private debugs(fiber: Fiber): boolean {
    if (this.program.onlySpell === null) return true;
    if (this.castFiber === null && this.adopting && fiber.spell === this.program.onlySpell) this.castFiber = fiber;
    return fiber === this.castFiber;
  }

  private recordPause(record: PauseRecord): void {
    this.pending.push(record);
    if (!this.entryTaken && !record.yielded && this.options.stopOnEntry && !this.options.noDebug) {
      // Only the first fiber stops on entry; the others (a scenario's next casts) run to their breakpoints.
      this.entryTaken = true;
      this.entryFiber = record.fiber;
      for (const s of this.sources) s.debugger.startMode = 'run';
    }
  }

  /**
   * Set a file's breakpoints: each moves to the next line with code, as the
   * playground does; one that can never be hit says why.
   */
  setBreakpoints(path: string, lines: readonly number[]): BreakpointPlace[] {
    const source = this.sourceOf(path);
    if (source === null) return lines.map((line) => ({ verified: false, line, message: 'This file is not part of the program being debugged.' }));
    const places = lines.map((line) => placeBreakpoint(source, line));
    if (!this.options.noDebug) source.debugger.setBreakpoints(places.filter((p) => p.verified).map((p) => p.line));
    return places;
  }

  private sourceOf(path: string): DebuggedSource | null {
    const wanted = resolve(path);
    return this.sources.find((s) => resolve(s.path) === wanted) ?? null;
  }

  /** Begin: run the script or the cast (a scenario begins with its first tick) until the first stop or the end. */
  start(): void {
    this.running = true;
    this.guard(() => {
      this.clock.start();
      this.adopting = true;
      let fiber: Fiber | null;
      try {
        fiber = this.program.begin();
      } finally {
        this.adopting = false;
      }
      if (fiber !== null) {
        // A cast that ended before its first line (no code of its own) is still the one the launch debugs.
        if (this.program.onlySpell !== null) this.castFiber ??= fiber;
        const record = this.pending.find((r) => r.fiber === fiber);
        const source = this.sources.find((s) => s.vm === record?.vm) ?? this.sources[0]!;
        this.shown = { fiber, source, cast: source.gate.castOf(fiber) };
      }
      this.settle();
    });
  }

  /** Continue or step the shown fiber (a waiting one: the world steps until it wakes). */
  resume(mode: StepMode): void {
    if (this.running || this.ended) return;
    const shown = this.shown;
    this.running = true;
    this.guard(() => {
      if (shown === null || isWaiting(shown.fiber)) {
        if (shown !== null) shown.source.debugger.setMode(shown.fiber, mode);
        this.stepWorld();
        return;
      }
      this.clock.start();
      this.run(shown, (fiber) => shown.source.debugger.setMode(fiber, mode));
      if (mode !== 'run' && isWaiting(shown.fiber) && this.program.world !== null) {
        // A step that ends in a wait stops there, paused in time: the next step or continue steps the world until it wakes.
        this.program.world.flush();
        return this.stop('step', this.waitingText());
      }
      this.settle();
    });
  }

  /** Stop at the next chance: the running fiber's next line, or between two world ticks. */
  pause(): void {
    if (this.running) this.pauseRequested = true;
  }

  /** End the program now (the editor's Stop). */
  terminate(): void {
    if (this.ended) return;
    const shown = this.shown;
    if (shown !== null && (shown.fiber.state === 'paused' || shown.fiber.state === 'suspended')) {
      if (this.program.world !== null) this.program.world.cancelCast(shown.fiber, 'Stopped in the debugger.');
      else shown.source.vm.cancel(shown.fiber, 'Stopped in the debugger.');
    }
    this.ended = true;
    this.running = false;
    this.detach();
  }

  /** The shown fiber's call stack, innermost first, with each frame's file. */
  stack(): { readonly frame: FrameView; readonly path: string }[] {
    const shown = this.shown;
    if (shown === null || this.running || (shown.fiber.state !== 'paused' && shown.fiber.state !== 'suspended')) return [];
    return shown.source.debugger.callStack(shown.fiber).map((frame) => ({ frame, path: shown.source.path }));
  }

  /** The values frame `index` (of stack()) sees. */
  frameValues(index: number): FrameValues | null {
    const shown = this.shown;
    if (shown === null || this.running) return null;
    return shown.source.debugger.frameValues(shown.fiber, index);
  }

  /** The globals of the shown fiber's program, in the order they are declared. */
  globals(): { readonly name: string; readonly value: Value }[] {
    const vm = this.shown?.source.vm;
    if (vm === undefined) return [];
    const names = [...new Set(vm.module.globals)];
    return names.flatMap((name) => {
      const value = vm.getGlobal(name);
      return value === undefined ? [] : [{ name, value }];
    });
  }

  /** What `evaluate` sees in frame `index`: its values, the program's globals and host functions, the cast's world. */
  evaluationScope(index: number): EvaluationScope | null {
    const shown = this.shown;
    const values = this.frameValues(index);
    if (shown === null || values === null) return null;
    const world = this.program.world;
    const cast = shown.cast;
    return {
      locals: values.locals,
      upvalues: values.upvalues,
      global: (name) => shown.source.vm.getGlobal(name),
      hosts: world?.hosts ?? CLI_HOSTS,
      cast,
    };
  }

  /**
   * Go on with a paused fiber, after `prepare` (the step mode to go on in,
   * or nothing after a yield) — through the world when there is one, which
   * keeps the casts it runs (parked in a wait, reported when they fail).
   */
  private run(shown: Shown, prepare: (fiber: Fiber) => void): void {
    const go = (fiber: Fiber) => {
      prepare(fiber);
      shown.source.vm.continuePaused(fiber);
    };
    const world = this.program.world;
    if (world !== null) world.continuePaused(shown.fiber, go);
    else go(shown.fiber);
  }

  /** After a run: show the next stop, go on after a yield, step the world, or end. */
  private settle(): void {
    this.program.world?.flush();
    // A fiber paused, yielded and went on keeps only its last record.
    const last = new Map(this.pending.map((r) => [r.fiber, r]));
    this.pending = [...last.values()].filter((r) => r.fiber.state === 'paused');
    const shown = this.shown;
    if (shown !== null && shown.fiber.state === 'paused') return this.atPause(this.takePending(shown.fiber) ?? null, shown);
    if (shown !== null && (shown.fiber.state === 'done' || shown.fiber.state === 'failed')) {
      this.shown = null;
      if (this.program.kind !== 'scenario') return this.finish(this.exitCodeOf(shown));
    }
    const next = this.pending.shift();
    if (next !== undefined) return this.atPause(next, this.showRecord(next));
    if (this.program.world !== null) return this.stepWorld();
    // A script that left the VM without finishing (it cannot wait without a world).
    this.listener.error(`cantrip: the script paused (state '${shown?.fiber.state ?? 'unknown'}'), and a script has no world to resume it.`, null, null);
    this.finish(EXIT.software);
  }

  private takePending(fiber: Fiber): PauseRecord | undefined {
    const i = this.pending.findIndex((r) => r.fiber === fiber);
    return i < 0 ? undefined : this.pending.splice(i, 1)[0];
  }

  private showRecord(record: PauseRecord): Shown {
    const source = this.sources.find((s) => s.vm === record.vm) ?? this.sources[0]!;
    this.shown = { fiber: record.fiber, source, cast: record.cast };
    return this.shown;
  }

  /** The shown fiber is paused: a yield goes on (unless a pause was asked for), a real stop is shown. */
  private atPause(record: PauseRecord | null, shown: Shown): void {
    if (record?.yielded) {
      if (this.pauseRequested) return this.stop('pause', 'Paused.');
      setImmediate(() =>
        this.guard(() => {
          this.clock.start();
          this.run(shown, () => {});
          this.settle();
        }),
      );
      return;
    }
    const line = shown.source.debugger.callStack(shown.fiber)[0]?.line ?? 0;
    if (shown.fiber === this.entryFiber) {
      // Stopped on entry once; a later stop of the same fiber is a step or a breakpoint.
      this.entryFiber = null;
      return this.stop('entry', 'Stopped on entry.');
    }
    if (shown.source.debugger.breakpoints.has(line)) return this.stop('breakpoint', `Breakpoint at line ${line}.`);
    this.stop('step', `Line ${line}.`);
  }

  /**
   * Step the world tick by tick, in slices (between them the adapter reads
   * the editor's messages): until the waiting cast wakes, a fiber stops, a
   * pause is asked for, or a scenario's ticks are done.
   */
  private stepWorld(): void {
    const tickSlice = (): void =>
      this.guard(() => {
        const started = performance.now();
        for (;;) {
          if (this.pauseRequested) return this.stop('pause', this.waitingText());
          this.clock.stop();
          if (!this.program.tick()) return this.finish(EXIT.ok);
          const shown = this.shown;
          const woke = shown !== null && shown.fiber.state !== 'suspended';
          if (woke || this.pending.some((r) => r.fiber.state === 'paused')) return this.settle();
          if (performance.now() - started > 20) {
            setImmediate(tickSlice);
            return;
          }
        }
      });
    tickSlice();
  }

  /** Where the shown cast waits, for a pause while the world steps. */
  private waitingText(): string {
    const clock = this.program.clock;
    const now = clock === null ? '' : `now t=${clock.time.toFixed(2)} s, tick ${clock.steps}`;
    const shown = this.shown;
    if (shown === null || shown.fiber.state !== 'suspended') return `Paused between world ticks (${now}).`;
    const wakeAt = shown.cast?.wakeAt;
    return `${shown.fiber.spell ?? 'The cast'} is waiting${wakeAt === undefined ? '' : ` until t=${wakeAt.toFixed(2)} s`} (${now}): step or continue to step the world until it wakes.`;
  }

  private stop(reason: StopReason, description: string): void {
    this.pauseRequested = false;
    this.running = false;
    this.listener.stopped(reason, description);
  }

  /** The exit code `cantrip run` gives: 0, or 70 after a runtime error (the world reported a cast's as an event). */
  private exitCodeOf(shown: Shown): number {
    if (shown.fiber.state !== 'failed') return EXIT.ok;
    const error = shown.fiber.error;
    if (this.program.world === null && error !== null) {
      const top = error.trace[0];
      this.listener.error(error.format(), top === undefined ? null : shown.source.path, top?.line ?? null);
    }
    return EXIT.software;
  }

  private finish(exitCode: number): void {
    if (this.ended) return;
    this.ended = true;
    this.running = false;
    this.program.world?.flush();
    this.detach();
    this.listener.finished(exitCode);
  }

  private detach(): void {
    for (const s of this.sources) {
      s.debugger.detach();
      s.vm.breakHandler = null;
    }
  }

  /** A failure of the runtime itself (not the spell's): said, and the program ends as `cantrip` would (70). */
  private guard(body: () => void): void {
    // A slice scheduled before the editor stopped the program finds it ended: nothing more runs.
    if (this.ended) return;
    try {
      body();
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.listener.error(`cantrip: ${text}`, null, null);
      if (error instanceof Error && error.stack) process.stderr.write(`cantrip dap: ${error.stack}\n`);
      this.finish(EXIT.software);
    }
  }
}

/** Whether a fiber is suspended in a host call (a wait). A function, so a check after running the fiber is not narrowed away by one before. */
function isWaiting(fiber: Fiber): boolean {
  return fiber.state === 'suspended';
}

/**
 * A breakpoint on `line`, or the next line with code. Where a world already
 * ran the file's top-level code, only code in spells and functions can stop,
 * so a breakpoint on a top-level line (a `spell` header, a global) moves to
 * the next line of one, and says why.
 */
function placeBreakpoint(source: DebuggedSource, line: number): BreakpointPlace {
  const next = source.codeLines.find((l) => l >= line);
  if (next === undefined) return { verified: false, line, message: 'No code on or after this line: this breakpoint is never hit.' };
  if (!source.scriptRanAlready || !source.scriptOnlyLines.has(next)) return { verified: true, line: next };
  const inFunction = source.codeLines.find((l) => l >= line && !source.scriptOnlyLines.has(l));
  const why = 'Top-level code runs when the world loads the file, before the debugger attaches';
  if (inFunction === undefined) return { verified: false, line: next, message: `${why}: this breakpoint is never hit. Set it inside a spell or a function.` };
  return { verified: true, line: inFunction, message: `${why}: moved to the next line of a spell or function.` };
}
