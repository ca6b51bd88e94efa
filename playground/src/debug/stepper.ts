/**
 * Breakpoints and stepping on the VM's debugging hooks (vm/vm.ts): while
 * attached, every instruction start of every function is a BREAK, and the
 * VM asks `shouldPause` before running the instruction it replaced. A pause
 * happens where a new source line starts (a different line, frame or
 * function than the instruction before, or a jump back within the same
 * line, as in a one-line loop).
 */
import type { Fiber } from '../../../vm/fiber.js';
import type { ObjFunction } from '../../../vm/objects.js';
import { Op, instructionSize } from '../../../vm/opcodes.js';
import type { BreakHandler, VM } from '../../../vm/vm.js';

export type StepMode = 'run' | 'into' | 'over' | 'out';

interface Place {
  fn: ObjFunction | null;
  line: number;
  depth: number;
  pc: number;
}

/** `code` with a BREAK at every instruction start (operands untouched). */
export function breakEverywhere(code: Int32Array): Int32Array {
  const patched = Int32Array.from(code);
  for (let pc = 0; pc < code.length; pc += instructionSize(code[pc]!)) patched[pc] = Op.BREAK;
  return patched;
}

export class Stepper implements BreakHandler {
  breakpoints = new Set<number>();
  mode: StepMode = 'run';
  /** Where the last step command was given (stepping compares against it). */
  private from: Place = { fn: null, line: -1, depth: 0, pc: -1 };
  /** The instruction before the current one, per fiber. */
  private readonly previous = new WeakMap<Fiber, Place>();

  constructor(private readonly vm: VM) {}

  attach(): void {
    for (const fn of this.vm.runtimeFunctions) fn.code = breakEverywhere(fn.original);
    this.vm.breakHandler = this;
  }

  detach(): void {
    for (const fn of this.vm.runtimeFunctions) fn.code = fn.original;
    this.vm.breakHandler = null;
  }

  /** Set the mode for the next continuePaused, measured from where `fiber` is paused now. */
  prepare(mode: StepMode, fiber: Fiber): void {
    this.mode = mode;
    this.from = this.previous.get(fiber) ?? { fn: null, line: -1, depth: 0, pc: -1 };
  }

  shouldPause(fiber: Fiber, fn: ObjFunction, pc: number, depth: number): boolean {
    const here: Place = { fn, line: fn.lines[pc] ?? 0, depth, pc };
    const before = this.previous.get(fiber);
    this.previous.set(fiber, here);
    const newLine = !before || before.fn !== fn || before.depth !== depth || before.line !== here.line || pc <= before.pc;
    if (!newLine) return false;
    return this.pauseAt(here);
  }

  private pauseAt(here: Place): boolean {
    // A breakpoint stops every mode, also inside a call being stepped over.
    if (this.breakpoints.has(here.line)) return true;
    const moved = here.fn !== this.from.fn || here.line !== this.from.line || here.depth !== this.from.depth;
    switch (this.mode) {
      case 'run':
        return false;
      case 'into':
        return moved;
      case 'over':
        return here.depth < this.from.depth || (here.depth === this.from.depth && moved);
      case 'out':
        return here.depth < this.from.depth;
    }
  }
}
