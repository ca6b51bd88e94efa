/** The parts of a generated case or block: instruction definitions and where their words are. */

import type { Instruction } from '../instructions/define.js';
import { INSTRUCTIONS, INTERNAL_INSTRUCTIONS } from '../instructions/index.js';
import type { Step } from '../superinstructions.js';

/** One instruction of a sequence: its definition and where its words start, counted from the sequence's base. */
export interface Part {
  readonly def: Instruction;
  readonly pos: number;
  /** Words it covers (JUMP_IF_FALSE_POP covers the JUMP_IF_FALSE and the POP after it). */
  readonly words: number;
  /** A jump whose target the sequence goes on at (a FOLLOW step came next): positions after it count from that target. */
  readonly follows: boolean;
}

const BY_NAME = new Map<string, Instruction>(
  [...INSTRUCTIONS, ...INTERNAL_INSTRUCTIONS.continuations, ...INTERNAL_INSTRUCTIONS.microInstructions].map((d) => [d.name, d]),
);

export function definition(name: string): Instruction {
  const def = BY_NAME.get(name);
  if (def === undefined) throw new Error(`No instruction definition named ${name}.`);
  return def;
}

/** Words an instruction occupies (opcode + operands). */
export const sizeOf = (def: Instruction): number => 1 + def.operands.length;

/** One instruction alone. */
export function single(def: Instruction): Part {
  return { def, pos: 0, words: sizeOf(def), follows: false };
}

/** A superinstruction's steps as parts. */
export function partsOf(steps: readonly Step[]): Part[] {
  const parts: Part[] = [];
  let pos = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step === 'FOLLOW') continue;
    const def = definition(step);
    const words = step === 'JUMP_IF_FALSE_POP' ? 3 : sizeOf(def);
    const follows = steps[i + 1] === 'FOLLOW';
    parts.push({ def, pos, words, follows });
    pos = follows ? 0 : pos + words;
  }
  return parts;
}
