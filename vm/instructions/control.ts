/** Jumps, loops and iteration. */

import { frameInstruction, stackInstruction } from './define.js';

export const CONTROL_INSTRUCTIONS = [
  stackInstruction('JUMP', ['jump'], { inputs: [], outputs: [] }, 'ip = target', 'JUMP($0);', {
    terminal: true,
    branchStack: 0,
    mayFail: false,
  }),
  frameInstruction(
    'JUMP_IF_FALSE',
    ['jump'],
    { pops: 1, stack: 0 },
    'if top is falsey, ip = target (top stays)',
    `const condition = stack[sp - 1]!;
     if (condition === null || condition === false) JUMP($0);`,
    { branchStack: 0, mayFail: false },
  ),
  stackInstruction(
    'LOOP',
    ['jump'],
    { inputs: [], outputs: [] },
    'ip = target (a back edge: charges fuel, one unit per word of the loop)',
    `CHARGE(NEXT - $0);
     TIER_UP_AT($0, NEXT - $0);
     JUMP($0);`,
    { terminal: true, branchStack: 0 },
  ),
] as const;

/** Defined after CALL…TEMPLATE in the table, where its opcode number sits. */
export const FOR_ITER = frameInstruction(
  'FOR_ITER',
  ['local', 'jump'],
  { pops: 0, stack: +1 },
  'locals[s] is a list (a map is replaced by a list of its keys at index 0) and locals[s+1] an index: push list[index] and advance, or jump to target when done',
  `const slot = base + $0;
   const iterable = stack[slot]!;
   const index = stack[slot + 1]!;
   let list: ObjList;
   if (iterable instanceof ObjList) list = iterable;
   else {
     // A map is iterated over a snapshot of its keys taken as the loop starts: the body may
     // add or remove entries and the loop stays deterministic. The snapshot is a list on the heap.
     if (!(iterable instanceof ObjMap)) FAULT('Can only iterate over a list or a map.');
     HEAP(HEAP_COST.list + iterable.size);
     CHARGE(iterable.size);
     stack[slot] = list = new ObjList(iterable.keys());
   }
   // Lists never hold \`undefined\`, so a missing element (past the end, or a bogus
   // index from hand-made bytecode) ends the loop.
   const item = typeof index === 'number' ? list.items[index] : undefined;
   if (item === undefined) JUMP($1);
   stack[sp++] = item;
   stack[slot + 1] = (index as number) + 1;`,
  { branchStack: 0 },
);

/**
 * A micro-instruction, never in bytecode: JUMP_IF_FALSE t followed by a POP,
 * where t holds a POP too. The condition is popped on both paths, so taken it
 * jumps past the POP at t. Superinstructions use it for every `if` and loop condition.
 */
export const JUMP_IF_FALSE_POP = stackInstruction(
  'JUMP_IF_FALSE_POP',
  ['jump'],
  { inputs: ['condition'], outputs: [] },
  'pop; if falsey, ip = target + 1 (JUMP_IF_FALSE t; POP, where t holds a POP)',
  'if (condition === null || condition === false) JUMP($0 + 1);',
  { branchStack: 0, mayFail: false },
);
