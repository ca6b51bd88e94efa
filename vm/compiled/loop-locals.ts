/**
 * What a loop compiled alone (vm/compiled/function-source.ts, a header given)
 * holds in JavaScript locals rather than in the fiber's stack and the
 * module's tables: the enclosing scope's frame slots (promoted, written back
 * where anything could read them on the stack), the loop body's block-scoped
 * slots (mirrored: the stack stays the truth), and its constants (read once
 * where the loop is entered). Which slots may be held, and the source that
 * declares them; the code generator decides where they are read and written.
 */

import { Op, OPCODES, stackEffect } from '../opcodes.js';
import type { Module } from '../module.js';
import type { Part } from '../generator/parts.js';
import { popsOf } from '../instructions/define.js';

/**
 * Frame slots a compiled loop holds in JavaScript locals (`L3`…), not in the
 * fiber's stack: its reads and writes of them (GET_LOCAL, SET_LOCAL) stay in
 * V8's registers, where a slot in the stack array was loaded again after
 * every store to the array. `load` declares them (read from the stack as
 * the loop's code is entered); `writeBack` puts those the loop writes back
 * on the stack, before anything that could read them there: every frame
 * part but a few (beforeFrame: calls, waits, builders, host calls), a heap
 * charge's slow road (beforeMeasure: a retained-heap measurement reads the
 * stack), the loop's way out, and an error. Between those nothing else
 * reads the frame's slots.
 */
export interface Promotion {
  readonly slots: ReadonlySet<number>;
  readonly load: string;
  readonly writeBack: string;
  /** The promoted slots the loop writes (SET_LOCAL). */
  readonly written: readonly number[];
}

export const NO_PROMOTION: Promotion = { slots: new Set(), load: '', writeBack: '', written: [] };

export const NO_SHADOWS: ReadonlySet<number> = new Set();

/**
 * The frame slots a loop's code mirrors in locals (\`S7\`): a block-scoped
 * variable of the loop's body (\`var k = i % 1000;\` inside it), which lies
 * above the lowest the stack goes in the loop, so it is not promoted
 * (promotedSlots): it is pushed and popped every time round. Its reads
 * (GET_LOCAL where it is on the stack, not in a pending local) take the
 * local; every write the code makes to its place on the stack — a flush of
 * pending values, SET_LOCAL, a lone instruction's output — writes the local
 * too, and after a frame part whose outputs cover it (a call's result) the
 * local is read again; where the loop is entered it is read from the stack.
 * So the stack stays the truth (nothing to write back, whatever leaves the
 * code). Never mirrored: the slots `unheld` names (unheldSlots). A read
 * from the stack array was loaded again after every store to the array and
 * call, and its type checked again.
 */
export function shadowSlots(code: Int32Array, loop: ReadonlyMap<number, { parts: Part[] }>, promotion: Promotion, unheld: ReadonlySet<number>): Set<number> {
  const read = new Set<number>();
  for (const [leader, { parts }] of loop) {
    for (const part of parts) if (part.def.name === 'GET_LOCAL') read.add(code[leader + part.pos + 1]!);
  }
  return new Set([...read].filter((k) => !promotion.slots.has(k) && !unheld.has(k)));
}

/**
 * The slots a loop's code may neither promote nor mirror: slot 0 (the callee
 * or `this`), a slot a closure of the function captures (its upvalue reads
 * and writes the stack), and one an instruction of the loop other than
 * GET_LOCAL / SET_LOCAL names, with the next (FOR_ITER's list and index). An
 * instruction of another loop of the function does not count: it runs only
 * when this loop's code does not.
 */
export function unheldSlots(code: Int32Array, loop: ReadonlyMap<number, { parts: Part[] }>, captured: ReadonlySet<number>): Set<number> {
  const unheld = new Set<number>([0, ...captured]);
  for (const [leader, { parts }] of loop) {
    for (const part of parts) {
      const pc = leader + part.pos;
      const op = code[pc]!;
      if (op === Op.GET_LOCAL || op === Op.SET_LOCAL) continue;
      OPCODES[op]!.operands.forEach((kind, k) => {
        if (kind === 'local') unheld.add(code[pc + 1 + k]!).add(code[pc + 1 + k]! + 1);
      });
    }
  }
  return unheld;
}

/** Frame parts that read nothing of the frame's slots below the operands (RETURN leaves the frame). */
export const NO_WRITE_BACK = new Set(['JUMP_IF_FALSE', 'CLOSE_UPVALUE', 'RETURN']);

/**
 * The slots of a loop's code held in locals: each slot the loop reads or
 * writes that lies below the lowest the stack goes in the loop (so it is a
 * local of the enclosing scope all the loop long, never an operand), but the
 * slots `unheld` names (unheldSlots).
 */
export function promotedSlots(code: Int32Array, depths: Int32Array, loop: ReadonlyMap<number, { parts: Part[] }>, unheld: ReadonlySet<number>): Promotion {
  let lowest = Infinity;
  const used = new Set<number>();
  const written = new Set<number>();
  for (const [leader, { parts }] of loop) {
    for (const part of parts) {
      const pc = leader + part.pos;
      const depth = depths[pc]!;
      if (depth < 0) continue;
      lowest = Math.min(lowest, depth - stackEffect(popsOf(part.def), part.def.operands.map((_, k) => code[pc + 1 + k]!)));
      if (part.def.name === 'GET_LOCAL' || part.def.name === 'SET_LOCAL') used.add(code[pc + 1]!);
      if (part.def.name === 'SET_LOCAL') written.add(code[pc + 1]!);
    }
  }
  const slots = [...used].filter((k) => k < lowest && !unheld.has(k)).sort((a, b) => a - b);
  if (slots.length === 0) return NO_PROMOTION;
  return {
    slots: new Set(slots),
    load: slots.map((k) => `L${k} = stack[base + ${k}]`).join(', '),
    writeBack: slots.filter((k) => written.has(k)).map((k) => `stack[base + ${k}] = L${k}; `).join(''),
    written: slots.filter((k) => written.has(k)),
  };
}

/** The slots the function's closures capture (their upvalues read and write the stack). */
export function capturedSlots(module: Module, code: Int32Array, starts: readonly number[]): Set<number> {
  const captured = new Set<number>();
  for (const pc of starts) {
    if (code[pc] === Op.CLOSURE) for (const up of module.functions[code[pc + 1]!]?.upvalues ?? []) if (up.isLocal) captured.add(up.index);
  }
  return captured;
}

/**
 * A loop's constants, each read once where the loop's code is entered: V8
 * reloaded \`constants[k]\` at each use after any call or store in the loop
 * (it cannot tell the table does not change), and checked its type again.
 * A whole function reads them where it uses them (most run once per call).
 * Only the indices reach the source.
 */
export function hoistedConstants(constants: ReadonlySet<number> | null): string {
  if (constants === null || constants.size === 0) return '';
  return `const ${[...constants].sort((a, b) => a - b).map((k) => `C${k} = constants[${k}]`).join(', ')};\n`;
}
