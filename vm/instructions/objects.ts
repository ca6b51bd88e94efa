/** Classes, instances, fields and methods. */

import { stackInstruction as inst } from './define.js';

export const OBJECT_INSTRUCTIONS = [
  inst(
    'GET_PROPERTY',
    ['name'],
    { inputs: ['object'], outputs: ['value'] },
    'replace object with its field or bound method',
    // Inline cache hit: this instruction saw this shape before; the field is in that slot.
    `if (object instanceof ObjInstance && object.shape === fn.icShape[IC]) value = object.values[fn.icSlot[IC]!]!;
     else {
       value = object instanceof ObjInstance ? getInstanceProperty(fn, IC, object, constants[$0] as string) : getOtherProperty(object, constants[$0] as string);
       if (value instanceof ObjBoundMethod) HEAP(HEAP_COST.boundMethod);
     }`,
  ),
  inst(
    'SET_PROPERTY',
    ['name'],
    { inputs: ['object', 'value'], outputs: ['value'] },
    'object value -> value, storing the field',
    `if (object instanceof ObjInstance && object.shape === fn.icShape[IC]) {
       // Inline cache hit: store in the cached slot. When the cache is a transition (the next
       // shape differs) the store adds a field.
       const next = fn.icNext[IC]!;
       if (next === object.shape) object.values[fn.icSlot[IC]!] = value;
       else {
         object.addField(fn.icSlot[IC]!, value);
         object.shape = next;
         HEAP(HEAP_COST.field);
       }
     } else {
       // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
       const cost = setProperty(fn, IC, object, constants[$0] as string, value);
       if (cost > 0) {
         CHARGE(cost);
         HEAP(cost);
       }
     }`,
  ),
  inst(
    'GET_SUPER',
    ['name'],
    { inputs: ['instance', 'superclass'], outputs: ['bound'] },
    'instance superclass -> bound super method',
    `if (!(superclass instanceof ObjClass)) FAULT('Superclass must be a class.');
     const method = superclass.methods.get(constants[$0] as string);
     if (method === undefined) FAULT(\`Undefined property \${quoted(constants[$0] as string)}.\`);
     HEAP(HEAP_COST.boundMethod);
     bound = new ObjBoundMethod(instance, method);`,
  ),
  inst(
    'CLASS',
    ['name'],
    { inputs: [], outputs: ['klass'] },
    'push a new class',
    // A class is a method table and a shape tree: charged as work as well as memory.
    `CHARGE(HEAP_COST.class);
     HEAP(HEAP_COST.class);
     klass = new ObjClass(constants[$0] as string);`,
  ),
  inst(
    'INHERIT',
    [],
    { inputs: ['superclass', 'subclass'], outputs: ['superclass'] },
    'superclass subclass -> superclass (copies methods down)',
    `if (!(superclass instanceof ObjClass)) FAULT('Superclass must be a class.');
     if (subclass instanceof ObjClass) {
       // Copying the method table is work and memory in proportion to its size: charged before copying.
       const copied = superclass.methods.size;
       CHARGE(copied);
       HEAP(copied * HEAP_COST.method);
       inherit(subclass, superclass);
     }`,
  ),
  inst(
    'METHOD',
    ['name'],
    { inputs: ['klass', 'method'], outputs: ['klass'] },
    'class closure -> class (adds the method)',
    `if (klass instanceof ObjClass && method instanceof ObjClosure) {
       const name = constants[$0] as string;
       HEAP(HEAP_COST.method);
       klass.methods.set(name, method);
       methodsChanged();
       if (name === 'init') klass.initializer = method;
     }`,
  ),
] as const;
