/** Instructions that push constants, shuffle the stack, and read or write variables. */

import { stackInstruction as inst } from './define.js';

const pure = { mayFail: false } as const;

export const VALUE_INSTRUCTIONS = [
  inst('CONSTANT', ['constant'], { inputs: [], outputs: ['value'] }, 'push constants[k]', 'value = CONST($0)!;', pure),
  inst('NIL', [], { inputs: [], outputs: ['value'] }, 'push nil', 'value = null;', pure),
  inst('TRUE', [], { inputs: [], outputs: ['value'] }, 'push true', 'value = true;', pure),
  inst('FALSE', [], { inputs: [], outputs: ['value'] }, 'push false', 'value = false;', pure),
  inst('POP', [], { inputs: ['_value'], outputs: [] }, 'discard the top value', '', pure),
  inst('DUP', [], { inputs: ['value'], outputs: ['value', 'value'] }, 'push a copy of the top value', '', pure),
  inst('DUP2', [], { inputs: ['a', 'b'], outputs: ['a', 'b', 'a', 'b'] }, 'push copies of the top two values (a b -> a b a b)', '', pure),
  inst('GET_LOCAL', ['local'], { inputs: [], outputs: ['value'] }, 'push frame slot', 'value = LOCAL($0);', pure),
  inst('SET_LOCAL', ['local'], { inputs: ['value'], outputs: ['value'] }, 'store top into frame slot (top stays)', 'STORE_LOCAL($0, value);', pure),
  inst(
    'GET_GLOBAL',
    ['global'],
    { inputs: [], outputs: ['value'] },
    "push global; 'Undefined variable' if never defined",
    `value = globals[$0]!;
     if (value === UNDEFINED) FAULT(\`Undefined variable \${quoted(globalNames[$0] ?? '')}.\`);`,
  ),
  inst('DEFINE_GLOBAL', ['global'], { inputs: ['value'], outputs: [] }, 'pop into global slot, defining it', 'globals[$0] = value;', pure),
  inst(
    'SET_GLOBAL',
    ['global'],
    { inputs: ['value'], outputs: ['value'] },
    "store top into a defined global (top stays); 'Undefined variable' otherwise",
    `if (globals[$0] === UNDEFINED) FAULT(\`Undefined variable \${quoted(globalNames[$0] ?? '')}.\`);
     globals[$0] = value;`,
  ),
  inst(
    'GET_UPVALUE',
    ['upvalue'],
    { inputs: [], outputs: ['value'] },
    'push captured variable',
    `const upvalue = closure.upvalues[$0]!;
     value = upvalue.cells[upvalue.index]!;`,
    pure,
  ),
  inst(
    'SET_UPVALUE',
    ['upvalue'],
    { inputs: ['value'], outputs: ['value'] },
    'store top into captured variable (top stays)',
    `const upvalue = closure.upvalues[$0]!;
     upvalue.cells[upvalue.index] = value;`,
    pure,
  ),
] as const;
