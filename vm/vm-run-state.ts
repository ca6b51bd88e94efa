/**
 * What a VM checks as every run starts and changes as runs start and end —
 * how many fibers are alive (the fiber budget counts them) and the
 * debugger's break handler — in one plain object the VM and its cast-loop
 * runner (vm/cast-loops.ts) both hold. A loop run reads and counts here
 * one load away: read through accessors of a view of the VM, the same
 * fields cost an empty loop run about 1 ns (docs/runtime.md, "Cast loops in
 * their own file").
 */

import type { BreakHandler } from './interpreter/interpreter-vm.js';

export class VmRunState {
  /** Fibers alive (running, suspended or paused). */
  liveFibers = 0;
  /** Set by the debugger while attached; BREAK opcodes only exist in code while it is. */
  breakHandler: BreakHandler | null = null;
}
