/**
 * The step debugger: line breakpoints, continue, step over / into / out,
 * the call stack and locals of a paused fiber.
 *
 * How it costs nothing when unused: the interpreter has no debug checks.
 * Attaching swaps each function's `code` for a patched copy of the module's
 * code (`fn.original`, without superinstructions) in which the
 * first instruction of every source line (and every jump target, so each
 * loop iteration is seen) is replaced by the BREAK opcode; operands stay in
 * place, so the layout and all jump targets are unchanged. On BREAK the VM
 * asks this debugger whether to pause; if not (or when resuming from the
 * pause) it re-dispatches to the original instruction kept in
 * `fn.original`. Detaching restores the fast code. Fibers saved while
 * suspended hold only offsets, so attaching and detaching work at any time,
 * and a fiber stepped into a `wait` keeps its stepping mode until the world
 * resumes it.
 *
 * A pause happens on a "line event": a BREAK in a different function, frame
 * depth or line than the previous event of the same fiber, or a jump back
 * (a one-line loop's next iteration).
 *
 * The instruction after each call (its return point) gets a BREAK too, so a
 * step that leaves a function (over or into from its `return`, or out)
 * pauses back on the call's line, with the call done and the rest of the
 * line still to run, as other debuggers do. Breakpoints are not checked
 * there: that line's breakpoint stopped the cast when the line was entered.
 */

import { displayBounded } from './display.js';
import type { Fiber } from './fiber.js';
import type { ObjClosure, ObjFunction } from './objects.js';
import { OPCODES, Op, instructionSize } from './opcodes.js';
import type { Value } from './value.js';
import type { BreakHandler, VM } from './vm.js';

export type StepMode = 'run' | 'into' | 'over' | 'out';

export interface LocalView {
  readonly name: string;
  /** As print shows it, cut to a readable length. */
  readonly value: string;
}

export interface FrameView {
  /** '' for the top-level script. */
  readonly functionName: string;
  /** Index into module.functions. */
  readonly functionIndex: number;
  readonly line: number;
  /** The current instruction (innermost frame) or the call being made (outer frames, and a pause back on a call's line). */
  readonly pc: number;
  readonly locals: readonly LocalView[];
}

/** A named value of a frame, as it is (not as print shows it): for tools that look inside lists, maps and instances. */
export interface NamedValue {
  readonly name: string;
  readonly value: Value;
}

/** What a frame's code can see besides globals: its live locals and the variables its closure captured. */
export interface FrameValues {
  readonly locals: readonly NamedValue[];
  readonly upvalues: readonly NamedValue[];
}

/** One call frame of a fiber, found once for callStack and frameValues alike. */
interface FrameAt {
  readonly closure: ObjClosure;
  readonly base: number;
  readonly pc: number;
  /** The fiber's top frame (a paused one may be shown on its call's line, callStack). */
  readonly innermost: boolean;
}

interface Place {
  readonly fn: ObjFunction | null;
  readonly line: number;
  readonly depth: number;
  readonly pc: number;
}

interface FiberDebugState {
  mode: StepMode;
  /** Where the last step command was given. */
  from: Place;
  /** The previous BREAK this fiber passed. */
  previous: Place | null;
  /** Paused back on a call's line at a return point that also starts the next line: that line's event, still to come. */
  nextLine: Place | null;
  /** The line a pause at a return point shows (the call's), else null: the paused instruction's line. */
  shownLine: number | null;
}

const NOWHERE: Place = { fn: null, line: -1, depth: 0, pc: -1 };
const MAX_VALUE_TEXT = 120;
const BREAK = Op.BREAK;

/** Offsets where a source line starts, plus every jump target and the entry. */
export function lineStarts(code: Int32Array, lines: Int32Array): number[] {
  const starts = new Set<number>([0]);
  let previousLine = -1;
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc]!;
    const info = OPCODES[op];
    if (info === undefined) break;
    if (lines[pc] !== previousLine) starts.add(pc);
    previousLine = lines[pc]!;
    info.operands.forEach((kind, i) => {
      if (kind === 'jump') starts.add(code[pc + 1 + i]!);
    });
    pc += instructionSize(op);
  }
  return [...starts].filter((pc) => pc < code.length).sort((a, b) => a - b);
}

/** Ops that push a frame: the instruction after one is where its callee returns to. */
const CALLS: ReadonlySet<number> = new Set([Op.CALL, Op.INVOKE, Op.SUPER_INVOKE]);

/** Offsets just after each call: where a frame returns to. */
export function returnPoints(code: Int32Array): number[] {
  const points: number[] = [];
  for (let pc = 0; pc < code.length; ) {
    const op = code[pc]!;
    if (OPCODES[op] === undefined) break;
    pc += instructionSize(op);
    if (CALLS.has(op) && pc < code.length) points.push(pc);
  }
  return points;
}

/** `code` with BREAK over the first word of each offset in `at`. */
export function patchBreaks(code: Int32Array, at: readonly number[]): Int32Array {
  const patched = Int32Array.from(code);
  for (const pc of at) patched[pc] = BREAK;
  return patched;
}

export class Debugger implements BreakHandler {
  /** Source lines with a breakpoint. */
  readonly breakpoints = new Set<number>();
  /** The mode of a fiber the debugger has not seen yet: 'into' pauses a new cast at its first line. */
  startMode: StepMode = 'run';
  private readonly states = new WeakMap<Fiber, FiberDebugState>();
  /** Each function's return points, found when attaching. */
  private readonly returns = new WeakMap<ObjFunction, ReadonlySet<number>>();
  private attached = false;

  constructor(private readonly vm: VM) {}

  get isAttached(): boolean {
    return this.attached;
  }

  attach(): void {
    if (this.attached) return;
    for (const fn of this.vm.runtimeFunctions) {
      const returns = returnPoints(fn.original);
      this.returns.set(fn, new Set(returns));
      fn.code = patchBreaks(fn.original, [...lineStarts(fn.original, fn.lines), ...returns]);
    }
    this.vm.breakHandler = this;
    this.attached = true;
  }

  detach(): void {
    for (const fn of this.vm.runtimeFunctions) fn.code = fn.fast;
    if (this.vm.breakHandler === this) this.vm.breakHandler = null;
    this.attached = false;
  }

  setBreakpoints(lines: Iterable<number>): void {
    this.breakpoints.clear();
    for (const line of lines) this.breakpoints.add(line);
  }

  continue(fiber: Fiber): Fiber {
    return this.resumeIn('run', fiber);
  }

  stepOver(fiber: Fiber): Fiber {
    return this.resumeIn('over', fiber);
  }

  stepInto(fiber: Fiber): Fiber {
    return this.resumeIn('into', fiber);
  }

  stepOut(fiber: Fiber): Fiber {
    return this.resumeIn('out', fiber);
  }

  /**
   * Set how `fiber` runs from now on without running it: for a fiber that is
   * suspended in a host call, the mode applies once the embedder resumes it.
   */
  setMode(fiber: Fiber, mode: StepMode): void {
    const state = this.stateOf(fiber);
    state.mode = mode;
    state.from = state.previous ?? NOWHERE;
  }

  /** Called by the VM at each BREAK. */
  shouldPause(fiber: Fiber, fn: ObjFunction, pc: number, depth: number): boolean {
    const state = this.stateOf(fiber);
    state.shownLine = null;
    const here: Place = { fn, line: fn.lines[pc] ?? 0, depth, pc };
    let before = state.previous;
    if (before !== null && depth < before.depth && this.returns.get(fn)?.has(pc) === true) {
      // Back from a call: still on the call's line (its last word's), with the rest of that line to run.
      const back: Place = { fn, line: fn.lines[pc - 1] ?? 0, depth, pc };
      state.previous = before = back;
      if (this.pauseAfterReturn(state, back)) {
        state.shownLine = back.line;
        state.nextLine = here.line !== back.line ? here : null;
        return true;
      }
    }
    state.previous = here;
    const lineEvent =
      before === null || before.fn !== fn || before.depth !== depth || before.line !== here.line || pc <= before.pc;
    return lineEvent && this.pauseAt(state, here);
  }

  /** The call stack of a paused (or suspended) fiber, innermost first, with each frame's locals. */
  callStack(fiber: Fiber): FrameView[] {
    // Paused back on a call's line: the innermost frame is shown as the call just made (its line and
    // instruction, as an outer frame's are), with the locals as they are now (the call's result may be one).
    const shownLine = this.states.get(fiber)?.shownLine ?? null;
    return framesOf(fiber).map(({ closure, base, pc, innermost }) => {
      const shown = innermost && fiber.state === 'paused' ? shownLine : null;
      return {
        functionName: closure.fn.name,
        functionIndex: closure.fn.index,
        line: shown ?? closure.fn.lines[pc] ?? 0,
        pc: shown === null ? pc : Math.max(0, pc - 1),
        locals: localsOf(fiber, closure.fn, base, pc).map(({ name, value }) => ({ name, value: show(value) })),
      };
    });
  }

  /**
   * The values frame `index` of callStack's order sees (its live locals and
   * its captured variables, named), as they are: a debugger's variables view
   * opens lists and instances from here. Null for a frame that is not there.
   */
  frameValues(fiber: Fiber, index: number): FrameValues | null {
    const frame = framesOf(fiber)[index];
    if (frame === undefined) return null;
    const { closure, base, pc } = frame;
    const upvalues = closure.upvalues.map((upvalue, i) => ({
      name: this.upvalueName(closure.fn.index, i),
      value: upvalue.cells[upvalue.index] ?? null,
    }));
    return { locals: localsOf(fiber, closure.fn, base, pc), upvalues };
  }

  /** Where each function's closure is made (the enclosing function and the CLOSURE's offset), found on first use. */
  private madeIn: Map<number, { readonly fn: number; readonly pc: number }> | null = null;

  /**
   * The module keeps no names for upvalues: one is the enclosing function's
   * local (named where the closure is made) or that function's own upvalue.
   */
  private upvalueName(fnIndex: number, upvalue: number): string {
    this.madeIn ??= closureSites(this.vm.runtimeFunctions);
    for (let fn = fnIndex, i = upvalue, hops = 0; hops < 256; hops++) {
      const site = this.madeIn.get(fn);
      const descriptor = this.vm.runtimeFunctions[fn]?.proto.upvalues[i];
      if (site === undefined || descriptor === undefined) break;
      if (!descriptor.isLocal) {
        fn = site.fn;
        i = descriptor.index;
        continue;
      }
      const locals = this.vm.runtimeFunctions[site.fn]?.proto.locals ?? [];
      // Live at the CLOSURE, or (a local function capturing itself) declared just after it.
      const slot = locals.filter((l) => l.slot === descriptor.index && l.name !== '');
      const named = slot.find((l) => l.startPc <= site.pc && site.pc < l.endPc) ?? slot.filter((l) => l.startPc > site.pc).sort((a, b) => a.startPc - b.startPc)[0];
      if (named !== undefined) return named.name;
      break;
    }
    return `upvalue ${upvalue}`;
  }

  private resumeIn(mode: StepMode, fiber: Fiber): Fiber {
    if (fiber.state !== 'paused') return fiber;
    this.setMode(fiber, mode);
    const state = this.stateOf(fiber);
    const next = state.nextLine;
    state.nextLine = null;
    state.shownLine = null;
    if (next !== null) {
      // Paused back on the call's line where the next line starts: the VM skips this BREAK when it
      // resumes, so the next line's event is taken here, and may pause at once without running anything.
      state.previous = next;
      if (this.pauseAt(state, next)) return fiber;
    }
    return this.vm.continuePaused(fiber);
  }

  private stateOf(fiber: Fiber): FiberDebugState {
    let state = this.states.get(fiber);
    if (state === undefined) {
      state = { mode: this.startMode, from: NOWHERE, previous: null, nextLine: null, shownLine: null };
      this.states.set(fiber, state);
    }
    return state;
  }

  /** Back on a call's line from its callee: a step that left the callee stops here; breakpoints and `run` do not. */
  private pauseAfterReturn(state: FiberDebugState, back: Place): boolean {
    if (state.mode === 'run') return false;
    const from = state.from;
    return state.mode === 'into' ? back.fn !== from.fn || back.depth !== from.depth : back.depth < from.depth;
  }

  private pauseAt(state: FiberDebugState, here: Place): boolean {
    // A breakpoint stops every mode, also inside a call being stepped over.
    if (this.breakpoints.has(here.line)) return true;
    const from = state.from;
    const moved = here.fn !== from.fn || here.line !== from.line || here.depth !== from.depth;
    switch (state.mode) {
      case 'run':
        return false;
      case 'into':
        return moved;
      case 'over':
        return here.depth < from.depth || (here.depth === from.depth && moved);
      case 'out':
        return here.depth < from.depth;
    }
  }
}

/** A fiber's frames of compiled code (not the entry trampolines), innermost first. */
function framesOf(fiber: Fiber): FrameAt[] {
  const frames: FrameAt[] = [];
  for (let i = fiber.frameCount - 1; i >= 0; i--) {
    const closure = fiber.frameClosures[i];
    if (!closure || closure.fn.index < 0) continue;
    const saved = fiber.frameIps[i]!;
    const innermost = i === fiber.frameCount - 1;
    // A paused innermost frame is saved at its instruction; others at the return address.
    const pc = innermost && fiber.state === 'paused' ? saved : Math.max(0, saved - 1);
    frames.push({ closure, base: fiber.frameBases[i]!, pc, innermost });
  }
  return frames;
}

/** The named locals live at `pc`, from the compiler's debug info; an inner declaration shadows an outer one. */
function localsOf(fiber: Fiber, fn: ObjFunction, base: number, pc: number): NamedValue[] {
  const locals: NamedValue[] = [];
  const seen = new Set<string>();
  const infos = fn.proto.locals;
  for (let k = infos.length - 1; k >= 0; k--) {
    const local = infos[k]!;
    if (pc < local.startPc || pc >= local.endPc || local.name === '' || seen.has(local.name)) continue;
    seen.add(local.name);
    locals.unshift({ name: local.name, value: fiber.stack[base + local.slot] ?? null });
  }
  return locals;
}

/** Each function made by a CLOSURE instruction: the function that makes it and where. */
function closureSites(functions: readonly ObjFunction[]): Map<number, { readonly fn: number; readonly pc: number }> {
  const sites = new Map<number, { readonly fn: number; readonly pc: number }>();
  for (const fn of functions) {
    const code = fn.original;
    for (let pc = 0; pc < code.length; pc += instructionSize(code[pc]!)) {
      if (OPCODES[code[pc]!] === undefined) break;
      if (code[pc] === Op.CLOSURE && !sites.has(code[pc + 1]!)) sites.set(code[pc + 1]!, { fn: fn.index, pc });
    }
  }
  return sites;
}

function show(value: Value): string {
  const text = displayBounded(value, MAX_VALUE_TEXT * 4) ?? '…';
  return text.length > MAX_VALUE_TEXT ? text.slice(0, MAX_VALUE_TEXT - 1) + '…' : text;
}
