/**
 * Builds one FunctionProto: code words, their lines, jump patching and the
 * stack-depth bookkeeping that gives `maxStack`. Stack effects come from the
 * opcode table (vm/opcodes.ts), the same rules the verifier checks.
 */

import type { FunctionKind, FunctionProto, LocalVariableInfo, UpvalueDescriptor } from '../vm/module.js';
import { Op, OPCODES, stackEffect } from '../vm/opcodes.js';

/** A forward jump waiting for its target. */
export interface PendingJump {
  /** Index of the jump's target operand word. */
  readonly operandAt: number;
  /** Stack depth when the jump is taken. */
  readonly depth: number;
}

interface OpenLocal {
  readonly name: string;
  readonly slot: number;
  readonly startPc: number;
}

export class FunctionBuilder {
  private readonly code: number[] = [];
  private readonly lines: number[] = [];
  private readonly debugLocals: LocalVariableInfo[] = [];
  private readonly openLocals: OpenLocal[] = [];
  /** Stack slots in use above the frame base (slot 0 and parameters included). */
  private depth: number;
  private maxDepth: number;
  /** False right after an instruction that never falls through (JUMP, LOOP, RETURN). */
  private reachable = true;
  /** Source line given to the next instructions. */
  line = 1;

  constructor(
    readonly name: string,
    readonly kind: FunctionKind,
    readonly arity: number,
  ) {
    this.depth = 1 + arity;
    this.maxDepth = this.depth;
  }

  get length(): number {
    return this.code.length;
  }

  emit(op: number): void {
    this.code.push(op);
    this.lines.push(this.line);
    this.afterInstruction(op, OPCODES[op]!.stack as number);
  }

  emit1(op: number, a: number): void {
    this.code.push(op, a);
    this.lines.push(this.line, this.line);
    const effect = OPCODES[op]!.stack;
    this.afterInstruction(op, typeof effect === 'number' ? effect : stackEffect(effect, [a]));
  }

  emit2(op: number, a: number, b: number): void {
    this.code.push(op, a, b);
    this.lines.push(this.line, this.line, this.line);
    const effect = OPCODES[op]!.stack;
    this.afterInstruction(op, typeof effect === 'number' ? effect : stackEffect(effect, [a, b]));
  }

  private afterInstruction(op: number, effect: number): void {
    this.depth += effect;
    if (this.depth > this.maxDepth) this.maxDepth = this.depth;
    const info = OPCODES[op]!;
    if ('terminal' in info && info.terminal) {
      // RETURN consumes its value; JUMP and LOOP leave the stack as it is.
      if (op === Op.RETURN) this.depth -= 1;
      this.reachable = false;
    } else {
      this.reachable = true;
    }
  }

  /** Emit a forward jump (JUMP, JUMP_IF_FALSE, or FOR_ITER with its slot); patch it later. */
  emitJump(op: number, slot?: number): PendingJump {
    const before = this.depth;
    if (slot === undefined) this.emit1(op, -1);
    else this.emit2(op, slot, -1);
    const branch = (OPCODES[op] as { branchStack?: number }).branchStack ?? 0;
    return { operandAt: this.code.length - 1, depth: before + branch };
  }

  /** Point a pending jump here. After a terminal instruction, the stack is as the jump left it. */
  patchJump(jump: PendingJump): void {
    this.code[jump.operandAt] = this.code.length;
    if (!this.reachable) {
      this.depth = jump.depth;
      this.reachable = true;
    }
  }

  emitLoop(target: number): void {
    this.emit1(Op.LOOP, target);
  }

  /** A local's value is now on the stack in `slot`: start its debug range. */
  openLocal(name: string, slot: number): void {
    this.openLocals.push({ name, slot, startPc: this.code.length });
  }

  /** Close the debug ranges of the innermost `count` locals. */
  closeLocals(count: number): void {
    const endPc = this.code.length;
    for (let i = 0; i < count; i++) {
      const local = this.openLocals.pop();
      if (local && local.name !== '') this.debugLocals.push({ ...local, endPc });
    }
  }

  finish(upvalues: readonly UpvalueDescriptor[]): FunctionProto {
    this.closeLocals(this.openLocals.length);
    this.debugLocals.sort((a, b) => a.startPc - b.startPc || a.slot - b.slot);
    return {
      name: this.name,
      kind: this.kind,
      arity: this.arity,
      upvalues,
      code: Int32Array.from(this.code),
      lines: Int32Array.from(this.lines),
      maxStack: this.maxDepth,
      locals: this.debugLocals,
    };
  }
}
