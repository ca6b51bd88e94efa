/**
 * Random modules that pass the verifier by construction, for fuzzing the VM:
 * generated from the OPCODES table (operands in range for their kind, stack
 * depth tracked with the table's pops/stack), with loops and for-ins, but with
 * values of every type flowing into every instruction.
 */

import { asmModule, type AsmFunction, type AsmItem } from './assemble.test-helper.js';
import type { HostImport, Module, UpvalueDescriptor } from './module.js';
import { Op, OPCODES, stackEffect, type OpcodeInfo } from './opcodes.js';

/** A small deterministic PRNG (mulberry32), seeded by fast-check so failures replay. */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) | 0;
  };
}

const CONSTANTS = [0, 1, 2.5, -1, 'a', 'init', 'x', 'append', 'remove', 'hello', 3, 1e308];
const STRING_CONSTANTS = CONSTANTS.flatMap((c, i) => (typeof c === 'string' ? [i] : []));
export const GLOBALS = ['g0', 'g1', 'g2'];
const HOST_IMPORTS: HostImport[] = [
  { name: 'len', arities: [1] },
  { name: 'str', arities: [1] },
  { name: 'min', arities: [2] },
  { name: 'floor', arities: [1] },
];

/** The functions' signatures; bodies are generated. f2 captures the encloser's slot 0, f3 the encloser's upvalue 0. */
const SHAPES: { name: string; arity: number; upvalues: UpvalueDescriptor[]; kind: AsmFunction['kind'] }[] = [
  { name: '', arity: 0, upvalues: [], kind: 'script' },
  { name: 'f1', arity: 1, upvalues: [], kind: 'function' },
  { name: 'f2', arity: 0, upvalues: [{ isLocal: true, index: 0 }], kind: 'function' },
  { name: 'f3', arity: 2, upvalues: [{ isLocal: false, index: 0 }], kind: 'method' },
  { name: 'init', arity: 0, upvalues: [], kind: 'initializer' },
];

const STRAIGHT_LINE = OPCODES.map((info, code) => ({ info, code })).filter(
  ({ info }) => info.branchStack === undefined && info.terminal !== true && info.name !== 'BREAK',
);

const EXTRA_SLOTS = 10;

class FunctionGenerator {
  readonly items: AsmItem[] = [];
  depth: number;
  private labels = 0;

  constructor(
    private readonly random: (n: number) => number,
    private readonly self: number,
    private readonly base: number,
    private readonly maxStack: number,
  ) {
    this.depth = base;
  }

  private emit(code: number, operands: readonly number[], info: OpcodeInfo): void {
    this.items.push(code, ...operands);
    this.depth += stackEffect(info.stack, operands);
  }

  /** Operands for `info` valid at the current depth, or null when it cannot be emitted here. */
  private operandsFor(info: OpcodeInfo): number[] | null {
    const r = this.random;
    const operands: number[] = [];
    for (const kind of info.operands) {
      switch (kind) {
        case 'constant':
          operands.push(r(CONSTANTS.length));
          break;
        case 'name':
          operands.push(STRING_CONSTANTS[r(STRING_CONSTANTS.length)]!);
          break;
        case 'local':
          // Often a slot at the top (an operand's own, the values just below it: what compiled code holds in
          // locals within a block), or any live slot.
          operands.push(r(2) === 0 ? Math.max(0, this.depth - 1 - r(3)) : r(this.depth));
          break;
        case 'upvalue':
          if (SHAPES[this.self]!.upvalues.length === 0) return null;
          operands.push(r(SHAPES[this.self]!.upvalues.length));
          break;
        case 'global':
          operands.push(r(GLOBALS.length));
          break;
        case 'function': {
          const target = 1 + r(SHAPES.length - 1);
          const capturesUpvalue = SHAPES[target]!.upvalues.some((u) => !u.isLocal);
          if (capturesUpvalue && SHAPES[this.self]!.upvalues.length === 0) return null;
          operands.push(target);
          break;
        }
        case 'host':
          operands.push(r(HOST_IMPORTS.length));
          break;
        case 'count':
          operands.push(info.name === 'CALL_HOST' ? HOST_IMPORTS[operands[0]!]!.arities[0]! : r(4));
          break;
        case 'jump':
          return null;
      }
    }
    const pops = stackEffect(info.pops, operands);
    const after = this.depth + stackEffect(info.stack, operands);
    if (this.depth - pops < this.base || after > this.maxStack || after < this.base) return null;
    return operands;
  }

  straightLine(steps: number): void {
    for (let i = 0; i < steps; i++) {
      const { info, code } = STRAIGHT_LINE[this.random(STRAIGHT_LINE.length)]!;
      const operands = this.operandsFor(info);
      if (operands !== null) this.emit(code, operands, info);
    }
  }

  /** Bring the stack back to `depth` with POPs and NILs. */
  restore(depth: number): void {
    while (this.depth > depth) this.emit(Op.POP, [], OPCODES[Op.POP]!);
    while (this.depth < depth) this.emit(Op.NIL, [], OPCODES[Op.NIL]!);
  }

  /** Push a list of `n` random constants (when the stack has room). */
  list(n: number): void {
    if (this.depth + n > this.maxStack) return;
    for (let i = 0; i < n; i++) this.emit(Op.CONSTANT, [this.random(CONSTANTS.length)], OPCODES[Op.CONSTANT]!);
    this.emit(Op.BUILD_LIST, [n], OPCODES[Op.BUILD_LIST]!);
  }

  /** `top: body; cond; JUMP_IF_FALSE exit; POP; LOOP top; exit: POP` — may spin until fuel runs out. */
  loop(steps: number): void {
    if (this.depth + 1 > this.maxStack) return;
    const label = `L${this.labels++}`;
    const entry = this.depth;
    this.items.push(`${label}:`);
    this.straightLine(steps);
    this.restore(entry);
    this.straightLine(1);
    if (this.depth === entry) this.emit(Op.TRUE, [], OPCODES[Op.TRUE]!);
    this.restore(entry + 1);
    this.items.push(Op.JUMP_IF_FALSE, `@${label}x`, Op.POP, Op.LOOP, `@${label}`, `${label}x:`, Op.POP);
    this.depth = entry;
  }

  /** A for-in over whatever sits in two fresh slots (a list, or not). */
  forIn(steps: number): void {
    if (this.depth + 4 > this.maxStack) return;
    const label = `F${this.labels++}`;
    const slot = this.depth;
    if (this.random(3) > 0) this.list(1 + this.random(3));
    else this.straightLine(1);
    this.restore(slot + 1);
    this.items.push(Op.CONSTANT, 0);
    this.depth++;
    this.items.push(`${label}:`, Op.FOR_ITER, slot, `@${label}x`);
    this.depth++;
    if (this.random(3) === 0) {
      // Hostile code may overwrite the hidden index with anything: -1, 2.5, a string.
      this.items.push(Op.CONSTANT, this.random(CONSTANTS.length), Op.SET_LOCAL, slot + 1, Op.POP);
    }
    // Use the element right away: whatever FOR_ITER pushed must be a real value.
    if (this.random(2) === 0) this.items.push(Op.DUP, Op.PRINT);
    this.straightLine(steps);
    this.restore(slot + 3);
    this.items.push(Op.POP, Op.LOOP, `@${label}`, `${label}x:`, Op.POP, Op.POP);
    this.depth = slot;
  }

  /**
   * Stack traffic that cannot fail — constants, reads and writes of slots (often the top ones, the
   * operand's own included), DUP, POP — then every slot printed: values moving between slots and
   * the locals compiled code holds them in within a block, observed (most other random code fails
   * on a type before it prints anything).
   */
  slotTraffic(steps: number): void {
    const entry = this.depth;
    const moves = [Op.CONSTANT, Op.GET_LOCAL, Op.SET_LOCAL, Op.SET_LOCAL, Op.DUP, Op.POP];
    // Constants pushed first (values that differ), so that the moves find some held in locals below the top.
    const pushes = 1 + this.random(4);
    for (let i = 0; i < pushes + steps; i++) {
      const code = i < pushes ? Op.CONSTANT : moves[this.random(moves.length)]!;
      const info = OPCODES[code]!;
      if (code === Op.POP && this.depth <= entry) continue;
      const operands = this.operandsFor(info);
      if (operands !== null) this.emit(code, operands, info);
    }
    if (this.depth + 1 > this.maxStack) return;
    for (let slot = 0; slot < this.depth; slot++) this.items.push(Op.GET_LOCAL, slot, Op.PRINT);
  }

  finish(): AsmItem[] {
    if (this.depth === this.base) this.emit(Op.NIL, [], OPCODES[Op.NIL]!);
    this.items.push(Op.RETURN);
    return this.items;
  }
}

export function generateModule(seed: number): Module {
  const random = prng(seed);
  const functions: AsmFunction[] = SHAPES.map((shape, self) => {
    const base = 1 + shape.arity;
    const maxStack = base + EXTRA_SLOTS;
    const g = new FunctionGenerator(random, self, base, maxStack);
    // Most random code fails on a type within a few instructions: half the functions start with traffic that cannot.
    if (random(2) === 0) g.slotTraffic(random(10));
    const blocks = 1 + random(4);
    for (let b = 0; b < blocks; b++) {
      const choice = random(7);
      if (choice === 0) g.loop(random(8));
      else if (choice === 1) g.forIn(random(6));
      else if (choice === 2) g.slotTraffic(random(10));
      else g.straightLine(random(16));
    }
    return { ...shape, maxStack, code: g.finish() };
  });
  return asmModule({
    constants: CONSTANTS,
    globals: GLOBALS,
    hostImports: HOST_IMPORTS,
    spells: [],
    functions,
  });
}

