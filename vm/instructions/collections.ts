/** Lists, maps, indexing, text and printing. */

import { frameInstruction, stackInstruction } from './define.js';

export const INDEX_INSTRUCTIONS = [
  stackInstruction(
    'GET_INDEX',
    [],
    { inputs: ['list', 'index'], outputs: ['value'] },
    'list index -> element, or map key -> value',
    // A map's string or number key is looked up as it is stored; anything else (a missing key, an entity) goes the slow way.
    `if (list instanceof ObjList && typeof index === 'number' && (index | 0) === index && index >= 0 && index < list.items.length) {
       value = list.items[index]!;
     } else {
       const found = list instanceof ObjMap ? list.lookup(index) : undefined;
       value = found !== undefined ? found : list instanceof ObjList ? list.items[checkIndex(list, index)]! : getMapEntry(list, index);
     }`,
  ),
  stackInstruction(
    'SET_INDEX',
    [],
    { inputs: ['list', 'index', 'value'], outputs: ['value'] },
    'list index value -> value, storing the element (or map key value -> value, storing the entry)',
    `if (list instanceof ObjList) list.items[checkIndex(list, index)] = value;
     else if (list instanceof ObjMap && (typeof index === 'string' || (typeof index === 'number' && index === index && (index !== 0 || 1 / index > 0)))) {
       // A string or number key (not nan, which is refused, nor -0, whose sign the map keeps) is stored as itself.
       if (list.store(index, value)) HEAP(HEAP_COST.mapEntry);
     } else if (setMapEntry(list, index, value)) HEAP(HEAP_COST.mapEntry);`,
  ),
] as const;

export const PRINT = stackInstruction(
  'PRINT',
  [],
  { inputs: ['value'], outputs: [] },
  'pop and print',
  `let text: string;
   if (typeof value === 'object' && value !== null) {
     // Printing a big (or self-nesting) list is work: bound it by the fuel left.
     const shown = displayBounded(value, fuel);
     if (shown === null) {
       fuel = -1; // it walked all the text the fuel could pay for: all of it is spent
       OUT_OF_FUEL();
     }
     text = shown;
   } else text = displayValue(value);
   // Text sent out costs 1 fuel per character and counts against the output budget (the newline too).
   CHARGE(text.length);
   chargeOutput(fiber, text.length + 1);
   print(text);`,
);

export const BUILD_LIST = frameInstruction(
  'BUILD_LIST',
  ['count'],
  { pops: (o) => o[0]!, stack: (o) => 1 - o[0]! },
  'elements… -> list',
  `HEAP(HEAP_COST.list + $0);
   const items = stack.slice(sp - $0, sp);
   sp -= $0;
   stack[sp++] = new ObjList(items);`,
);

export const BUILD_MAP = frameInstruction(
  'BUILD_MAP',
  ['count'],
  { pops: (o) => 2 * o[0]!, stack: (o) => 1 - 2 * o[0]! },
  'key value … (count pairs) -> map; a later duplicate key wins',
  `const first = sp - 2 * $0;
   const map = new ObjMap();
   for (let i = first; i < sp; i += 2) setMapEntry(map, stack[i]!, stack[i + 1]!);
   HEAP(HEAP_COST.map + HEAP_COST.mapEntry * map.size);
   sp = first;
   stack[sp++] = map;`,
);

export const TEMPLATE = frameInstruction(
  'TEMPLATE',
  ['count'],
  { pops: (o) => o[0]!, stack: (o) => 1 - o[0]! },
  'parts… -> one string, each part converted as str() converts it',
  `const first = sp - $0;
   // Converting is work and the text is heap, as str() and \`+\` charge them.
   const text = templateText(stack, first, $0, fuel);
   if (text === null) OUT_OF_FUEL();
   CHARGE($0 + text.length);
   HEAP(text.length);
   sp = first;
   stack[sp++] = text;`,
);
