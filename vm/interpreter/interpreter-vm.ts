/** What the interpreter reads of the VM it runs for (vm/vm.ts builds it once per VM). */

import type { Fiber } from '../fiber.js';
import type { VmHostContext } from '../host-context.js';
import type { ObjFunction, ObjHostFunction } from '../objects.js';
import type { Value } from '../value.js';

/** Decides, at a BREAK, whether the fiber pauses there (vm/debugger.ts). */
export interface BreakHandler {
  shouldPause(fiber: Fiber, fn: ObjFunction, pc: number, depth: number): boolean;
}

export interface InterpreterVM {
  readonly constants: readonly (number | string)[];
  /** Global values by slot (UNDEFINED until defined). */
  readonly globals: Value[];
  /** Global names by slot, for error messages. */
  readonly globalNames: readonly string[];
  readonly functions: readonly ObjFunction[];
  /** Bound host functions, by host import index. */
  readonly hostImports: readonly ObjHostFunction[];
  readonly ctx: VmHostContext;
  readonly printFn: (text: string) => void;
  /** Set by the debugger while attached; BREAK opcodes only exist in code while it is. */
  readonly breakHandler: BreakHandler | null;
  /** `fn` is hot: compile it (true) unless the VM runs on the interpreter only. */
  tierUp(fn: ObjFunction): boolean;
  /**
   * A hot loop at `header` of `fn`, which runs on the interpreter: the compiled
   * code to go on in there (of that loop alone, or of the whole function), or
   * null to stay on the interpreter.
   */
  loopCode(fn: ObjFunction, header: number): NonNullable<ObjFunction['compiled']> | null;
  /** A fiber's run ended: give back its storage. */
  finish(fiber: Fiber, state: 'done' | 'failed'): void;
}
