/** Comparison, arithmetic and logic on the top of the stack. */

import { stackInstruction as inst } from './define.js';

/** `a b -> a OP b` on two numbers, "Operands must be numbers." otherwise. */
function numeric<const N extends string>(name: N, operator: string, doc: string) {
  return inst(
    name,
    [],
    { inputs: ['a', 'b'], outputs: ['result'] },
    doc,
    `if (typeof a !== 'number' || typeof b !== 'number') FAULT('Operands must be numbers.');
     result = a ${operator} b;`,
  );
}

export const ARITHMETIC_INSTRUCTIONS = [
  inst(
    'EQUAL',
    [],
    { inputs: ['a', 'b'], outputs: ['result'] },
    'a b -> a == b',
    // Two distinct strings of one length are compared char by char: charge for long ones, or a
    // loop of \`==\` on megabyte strings runs for minutes within its fuel (found by tests/sandbox).
    // A string is tested once: its comparison, then the length (short strings, the usual case, end there).
    `if (typeof a === 'string') {
       result = a === b;
       if (a.length > 64 && typeof b === 'string' && a.length === b.length) CHARGE(a.length >> 6);
     } else result = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));`,
  ),
  numeric('GREATER', '>', 'a b -> a > b (numbers)'),
  numeric('LESS', '<', 'a b -> a < b (numbers)'),
  inst(
    'ADD',
    [],
    { inputs: ['a', 'b'], outputs: ['result'] },
    'a b -> a + b (numbers, or two strings)',
    `if (typeof a === 'number' && typeof b === 'number') result = a + b;
     else if (typeof a === 'string' && typeof b === 'string') {
       HEAP(a.length + b.length);
       result = concatStrings(a, b);
     } else FAULT('Operands must be two numbers or two strings.');`,
  ),
  numeric('SUBTRACT', '-', 'a b -> a - b'),
  numeric('MULTIPLY', '*', 'a b -> a * b'),
  numeric('DIVIDE', '/', 'a b -> a / b'),
  numeric('MODULO', '%', 'a b -> a % b (sign of the dividend, as JS and C fmod)'),
  inst('NOT', [], { inputs: ['value'], outputs: ['result'] }, 'a -> !truthy(a)', 'result = value === null || value === false;', {
    mayFail: false,
  }),
  inst(
    'NEGATE',
    [],
    { inputs: ['value'], outputs: ['result'] },
    'a -> -a (numbers)',
    `if (typeof value !== 'number') FAULT('Operand must be a number.');
     result = -value;`,
  ),
] as const;
