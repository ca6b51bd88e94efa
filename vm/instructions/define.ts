/**
 * How an instruction is defined: once, here and in its sibling files, with
 * everything every tier and tool needs to know about it (after CPython's
 * Python/bytecodes.c). The opcode table (vm/opcodes.ts), the verifier's stack
 * effects, the disassembler, docs/bytecode.md, the superinstructions and the
 * interpreter's dispatch (vm/generated/interpreter.ts, written by
 * vm/generator/) are all derived from these definitions; none re-spells an
 * instruction's meaning by hand.
 *
 * An instruction's `body` is TypeScript source that the generator pastes into
 * the code it writes, with these macros expanded:
 *
 *   $0, $1          the instruction's operands (words after the opcode)
 *   AT, NEXT        the offset of the instruction's opcode word / of the word after the instruction
 *   IC              the inline-cache index of the instruction (AT + 1)
 *   FAULT(message)  fail the run with a runtime error (at this instruction's line)
 *   CHARGE(n)       spend n fuel; out of fuel fails the run here
 *   HEAP(n)         charge n heap units (may spend fuel to measure what is retained: the stack
 *                   as the plain interpreter holds it when the instruction starts, its inputs
 *                   included, vm/retained-heap.ts; a frame body charges before it moves sp)
 *   OUT_OF_FUEL()   fail the run: out of fuel
 *   JUMP(target)    continue at offset `target` (branching instructions only)
 *   LEAVE(result)   return `result` to the caller (the frame's upvalues already closed)
 *   ENTER(closure, argc)
 *                   call `closure` with the argc arguments on the stack (its frame pushed)
 *   GOTO(name)      go on with a call continuation (PUSH_FRAME, CALL_VALUE)
 *   CALL_OUT(slot, call)
 *                   call out of the VM (host function, built-in method): the result replaces
 *                   the stack from `slot` up, or the fiber waits if the callee asked it to
 *   MEASURABLE(host?)
 *                   before calling out: the fiber's sp and frame count as the plain interpreter
 *                   has them at this instruction's start, for a heap charge the callee makes
 *                   (compiled code holding a host call's values in locals writes them to the
 *                   stack first, for a fiber whose heap counts what it retains, unless `host`,
 *                   the ObjHostFunction called, never charges the heap)
 *   ARG_BASE(argc), ARG(i), ENTER_HOST(host, argBase, argc)
 *                   a host call's arguments (CALL_HOST only): where they start on the stack, the
 *                   i-th, and checkHost on them (enterHost's checks and charges). Compiled code whose
 *                   arguments (at most 3) are still in locals keeps them there: ARG_BASE is sp, ARG(i)
 *                   the local, and ENTER_HOST checks them in place (heldHostCheck in
 *                   vm/generator/case-writer.ts)
 *   TIER_UP_AT(target, fuel)
 *                   a loop's back edge (charged `fuel`): a hot function goes on in its compiled code at `target`
 *   DISPATCH(opcode) run another instruction at this one's place (BREAK only)
 *   DONE()          the instruction is finished: go on with the next one (a frame body's inline path)
 *   INPUT(k, n), FINISH(value, n)
 *                   an inline path's k-th of its n stack inputs (the deepest is 0), and its end with
 *                   `value` in place of all n. Compiled code that still holds the n values in locals
 *                   reads them there and holds the result in one (CaseWriter.heldInline)
 *   LOCAL(k), STORE_LOCAL(k, value)
 *                   read / write frame slot k (a stack body's only way to the stack's memory:
 *                   in a superinstruction the slot may still be in a local)
 *   CONST(k)        the module's constant k (`constants[k]`; a compiled loop reads each of its
 *                   constants once, where it is entered, into a local: Tier.constant)
 *
 * A body of kind `'stack'` names its stack inputs (deepest first) and outputs:
 * the generator binds the inputs as constants and takes the outputs from
 * variables the body assigns, so a sequence of such instructions (a
 * superinstruction) passes values from one to the next in locals, never
 * through the stack. A body of kind `'frame'` works on the interpreter's
 * registers itself (stack, sp, frames: calls, returns, variadic builders);
 * in a superinstruction it may only come last.
 *
 * The registers a body may read: `stack`, `sp`, `base`, `fuel`, `fiber`, `fn`,
 * `closure`, `code`, `constants`, `globals`, `functions`, `hostImports`,
 * `globalNames`, `print`, and (frame bodies) the frame arrays and `fc`.
 */

export type OperandKind =
  | 'constant' // index into module.constants
  | 'name' // index into module.constants that must be a string (property / method / class name)
  | 'local' // frame slot
  | 'upvalue' // index into the closure's upvalues
  | 'global' // index into module.globals
  | 'function' // index into module.functions
  | 'host' // index into module.hostImports
  | 'jump' // absolute target offset in this function
  | 'count'; // an argument / element count

export type StackEffect = number | ((operands: readonly number[]) => number);

interface Common<N extends string> {
  readonly name: N;
  readonly operands: readonly OperandKind[];
  readonly doc: string;
  /** True when a run can fail inside the body (a FAULT, a charge, a helper that throws). */
  readonly mayFail: boolean;
  /** Net stack effect when the jump is taken (branching instructions only). */
  readonly branchStack?: number;
  /** True when control never falls through to the next instruction. */
  readonly terminal?: boolean;
  /** The TypeScript body (see the macros above). */
  readonly body: string;
  /**
   * A frame instruction's fast path, the start of its body (an inline cache
   * hit). The interpreter runs it as the start of the instruction's case;
   * where the compiled tier runs the instruction through a shared function,
   * each use first calls the fast path's own small shared function
   * (`fast_INVOKE`: it pushes the callee's frame and returns its code, which
   * the use calls), and the shared function of the rest of the body
   * (`slowPath`) only when the fast path falls through.
   */
  readonly fastPath?: string;
  /**
   * A frame instruction's inline path: a quick case that finishes the
   * instruction in place (FINISH(result, n), or pushing its result, then DONE()) with no call, no
   * frame and nothing charged, or falls through to the rest. The interpreter
   * runs it after the fast path; compiled code pastes it at each use, before
   * the shared functions (a map's \`m.get(k)\`, in INVOKE: the shared
   * function's call would cost more than the work).
   */
  readonly inlinePath?: string;
  /** The body after the fast path and the inline path (the whole body when there are none). */
  readonly slowPath?: string;
}

/** A body that takes its inputs from the stack and leaves its outputs on it. */
export interface StackInstruction<N extends string = string> extends Common<N> {
  readonly kind: 'stack';
  /** Names of the values it pops, deepest first. */
  readonly inputs: readonly string[];
  /** Names of the values it pushes, deepest first (an input's name pushes that input back). */
  readonly outputs: readonly string[];
}

/** A body that works on the interpreter's registers itself. */
export interface FrameInstruction<N extends string = string> extends Common<N> {
  readonly kind: 'frame';
  /** Minimum stack depth (above the frame's locals) the instruction reads. */
  readonly pops: StackEffect;
  /** Net stack effect on fall-through. */
  readonly stack: StackEffect;
}

export type Instruction = StackInstruction | FrameInstruction;

type Extra = Partial<Pick<Common<string>, 'branchStack' | 'terminal' | 'fastPath' | 'inlinePath'>> & { readonly mayFail?: boolean };

/** An instruction whose stack use is fixed: `(inputs -- outputs)`. */
export function stackInstruction<const N extends string>(
  name: N,
  operands: readonly OperandKind[],
  effect: { readonly inputs: readonly string[]; readonly outputs: readonly string[] },
  doc: string,
  body: string,
  extra: Extra = {},
): StackInstruction<N> {
  return { kind: 'stack', name, operands, ...effect, doc, body, mayFail: extra.mayFail ?? true, ...extra };
}

/** An instruction that moves the stack pointer or the frames itself. */
export function frameInstruction<const N extends string>(
  name: N,
  operands: readonly OperandKind[],
  effect: { readonly pops: StackEffect; readonly stack: StackEffect },
  doc: string,
  body: string,
  extra: Extra = {},
): FrameInstruction<N> {
  const whole = [extra.fastPath, extra.inlinePath, body].filter((text) => text !== undefined).join('\n');
  return { kind: 'frame', name, operands, ...effect, doc, mayFail: extra.mayFail ?? true, ...extra, body: whole, slowPath: body };
}

/** Minimum stack depth the instruction reads. */
export function popsOf(def: Instruction): StackEffect {
  return def.kind === 'stack' ? def.inputs.length : def.pops;
}

/** Net stack effect on fall-through. */
export function stackOf(def: Instruction): StackEffect {
  return def.kind === 'stack' ? def.outputs.length - def.inputs.length : def.stack;
}
