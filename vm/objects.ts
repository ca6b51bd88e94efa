/**
 * The objects the VM allocates. Numbers, strings, booleans and nil stay
 * plain JS values (see vm/value.ts); everything else is one of these classes.
 *
 * Fields and methods live in `Map`s, never on plain JS objects, so names such
 * as `__proto__`, `constructor` or `toString` are ordinary spell names and can
 * never reach JavaScript's own machinery.
 */

import type { FunctionProto } from './module.js';
import { fuseSuperinstructions } from './superinstructions.js';
import { fuelBeforeCompiling } from './compiled/statuses.js';
import { hostArity, type HostFunction } from './host.js';
import type { MethodRow } from './builtin-method.js';
import { ObjMap } from './map-object.js';
import { HEAP_COST } from './costs.js';
import type { HostObject, Value, VmObject, ValueType } from './value.js';
import { Op, instructionSize } from './opcodes.js';

/**
 * The VM's runtime view of a FunctionProto. `code` is what the interpreter
 * executes: normally `fast` (the module's code with superinstruction heads,
 * see vm/superinstructions.ts); the debugger swaps in a copy of `original`
 * (the module's code) with BREAKs. All three share one layout.
 */
export class ObjFunction implements VmObject {
  readonly objectType = 'function';
  code: Int32Array;
  readonly original: Int32Array;
  readonly fast: Int32Array;
  readonly lines: Int32Array;
  readonly name: string;
  readonly arity: number;
  readonly maxStack: number;
  /**
   * Inline caches, indexed by the offset of an instruction's first operand:
   * GET_PROPERTY / SET_PROPERTY remember (shape, slot[, next shape]), INVOKE
   * remembers (shape, method). A shape implies its class, so a hit needs no lookup.
   */
  readonly icShape: (Shape | null)[];
  readonly icNext: (Shape | null)[];
  readonly icMethod: (ObjClosure | null)[];
  readonly icSlot: Int32Array;
  /** Fuel charged when the function is called: its instruction count, so fuel ≈ instructions executed for straight-line code. */
  readonly callFuel: number;
  /** The upvalues that capture enclosing locals, by decreasing slot: CLOSURE walks the open-upvalue list once in this order. */
  readonly captureOrder: Int32Array;
  /**
   * Its compiled code (vm/compiled/), once it is hot; null while it runs on the interpreter.
   * Run as `compiled(vm, fiber, closure, base, ip, sp)` (the same function for every VM of the
   * process that runs the same code: vm/compiled/compile.ts), it returns a status (vm/compiled/statuses.ts).
   */
  compiled: ((vm: object, fiber: object, closure: ObjClosure, base: number, ip: number, sp: number) => number) | null = null;
  /**
   * Its frame-0 entry for a cast loop's runs of two arguments (vm/compiled/function-source.ts,
   * compiledEntrySource): `loopEntry(vm, fiber, closure, a0, a1)`, made by the VM once `compiled`
   * is set, and dropped with it (the debugger attaching); null until then, or when it cannot be made.
   */
  loopEntry: ((vm: object, fiber: object, closure: ObjClosure, a0: Value, a1: Value) => number) | null = null;
  /**
   * A call from compiled code enters `compiled` only below this many frames (compiledDepthLimit,
   * vm/compiled/statuses.ts: fewer the more JavaScript stack a frame of it takes); deeper, the
   * interpreter runs it. Set with `compiled`; 0 while there is none.
   */
  compiledDepth = 0;
  /** Fuel it may still spend on the interpreter before it is compiled (vm/compiled/statuses.ts); Infinity: never. */
  untilCompiled: number;
  /**
   * Whether a call from compiled code may skip this function's frame (vm/compiled/enter.ts, pushFrame):
   * INLINE_NONE, or what its code starts with — `NIL; RETURN` (INLINE_NIL: an empty function or
   * method), `GET_LOCAL 0; RETURN` (INLINE_SELF: an empty `init`) or `GET_LOCAL 0; GET_PROPERTY k;
   * RETURN` (INLINE_GETTER: `return this.x;`, skipped when its own inline cache, at GETTER_IC,
   * holds the receiver's shape), or stores into fields of its slot 0 then returns it or nil
   * (INLINE_STORES: `init(x, y) { this.x = x; this.y = y; }`, a setter; skipped when every store's
   * cache holds the shape the instance has then).
   */
  readonly inline: number;
  /**
   * INLINE_STORES: two numbers per store — its SET_PROPERTY's inline cache, and its value: a
   * parameter's slot (> 0) or -1 - k for constants[k]; null for the other kinds.
   */
  readonly inlineStores: Int32Array | null;
  /** INLINE_STORES: whether the function returns its slot 0 (an initializer) rather than nil. */
  readonly inlineReturnsSelf: boolean;
  constructor(
    readonly proto: FunctionProto,
    readonly index: number,
    callFuel: number,
  ) {
    this.original = proto.code;
    this.fast = fuseSuperinstructions(proto.code);
    this.code = this.fast;
    this.lines = proto.lines;
    this.name = proto.name;
    this.arity = proto.arity;
    this.maxStack = Math.max(1, proto.maxStack);
    this.callFuel = callFuel;
    this.untilCompiled = fuelBeforeCompiling(proto.code.length);
    const stores = fieldStores(proto.code, proto.arity);
    this.inline = stores !== null ? INLINE_STORES : inlineKind(proto.code);
    this.inlineStores = stores === null ? null : Int32Array.from(stores.stores);
    this.inlineReturnsSelf = stores?.returnsSelf ?? false;
    const n = proto.code.length;
    this.icShape = filledArray<Shape | null>(n, null);
    this.icNext = filledArray<Shape | null>(n, null);
    this.icMethod = filledArray<ObjClosure | null>(n, null);
    this.icSlot = new Int32Array(n);
    const upvalues = proto.upvalues;
    const locals: number[] = [];
    for (let i = 0; i < upvalues.length; i++) if (upvalues[i]!.isLocal) locals.push(i);
    locals.sort((a, b) => upvalues[b]!.index - upvalues[a]!.index);
    this.captureOrder = Int32Array.from(locals);
  }
}

/** ObjFunction.inline: a call must push the frame and run the code. */
export const INLINE_NONE = 0;
/** ObjFunction.inline: the function returns its slot 0 (the receiver of a method). */
export const INLINE_SELF = 1;
/** ObjFunction.inline: the function returns a field of its slot 0, read by the GET_PROPERTY whose cache is at GETTER_IC. */
export const INLINE_GETTER = 2;
/** ObjFunction.inline: the function returns nil at once (an empty method or function). */
export const INLINE_NIL = 3;
/** ObjFunction.inline: the function stores into fields of its slot 0, then returns it or nil (ObjFunction.inlineStores). */
export const INLINE_STORES = 4;
/** Where the instruction after a function's first `GET_LOCAL 0` starts (offsets from the instructions' sizes, vm/opcodes.ts). */
const AFTER_SELF = instructionSize(Op.GET_LOCAL);
/** Where a getter's GET_PROPERTY keeps its inline cache (the offset of its operand, after `GET_LOCAL 0`). */
export const GETTER_IC = AFTER_SELF + 1;
/** Most field stores a call may skip the frame of. */
const MAX_INLINE_STORES = 8;

/**
 * The stores of a function whose code is only `GET_LOCAL 0; (GET_LOCAL p | CONSTANT k);
 * SET_PROPERTY name; POP` (at most MAX_INLINE_STORES times, p a parameter), then `GET_LOCAL 0;
 * RETURN` or `NIL; RETURN`; null for any other code.
 */
function fieldStores(code: Int32Array, arity: number): { stores: number[]; returnsSelf: boolean } | null {
  const stores: number[] = [];
  for (let pc = 0; ; ) {
    if (stores.length > 0 && code[pc] === Op.NIL && code[pc + 1] === Op.RETURN) return { stores, returnsSelf: false };
    if (code[pc] !== Op.GET_LOCAL || code[pc + 1] !== 0) return null;
    const at = pc + AFTER_SELF;
    const source = code[at];
    if (source === Op.RETURN) return stores.length > 0 ? { stores, returnsSelf: true } : null;
    if (source !== Op.GET_LOCAL && source !== Op.CONSTANT) return null;
    const operand = code[at + 1]!;
    const set = at + instructionSize(source);
    if (stores.length === 2 * MAX_INLINE_STORES || code[set] !== Op.SET_PROPERTY || code[set + instructionSize(Op.SET_PROPERTY)] !== Op.POP) return null;
    if (source === Op.CONSTANT) stores.push(set + 1, -1 - operand);
    else if (operand >= 1 && operand <= arity) stores.push(set + 1, operand);
    else return null;
    pc = set + instructionSize(Op.SET_PROPERTY) + instructionSize(Op.POP);
  }
}

function inlineKind(code: Int32Array): number {
  if (code.length >= 2 && code[0] === Op.NIL && code[1] === Op.RETURN) return INLINE_NIL;
  if (code.length <= AFTER_SELF || code[0] !== Op.GET_LOCAL || code[1] !== 0) return INLINE_NONE;
  if (code[AFTER_SELF] === Op.RETURN) return INLINE_SELF;
  const afterGet = AFTER_SELF + instructionSize(Op.GET_PROPERTY);
  if (code.length > afterGet && code[AFTER_SELF] === Op.GET_PROPERTY && code[afterGet] === Op.RETURN) return INLINE_GETTER;
  return INLINE_NONE;
}

/** A PACKED array (built by push, no holes). */
function filledArray<T>(length: number, value: T): T[] {
  const out: T[] = [];
  for (let i = 0; i < length; i++) out.push(value);
  return out;
}

/**
 * A captured variable. While open it reads and writes `cells[index]`, where
 * `cells` is the fiber's value stack; closing points `cells` at a private
 * one-element array. Reads and writes never branch on open/closed.
 */
export class ObjUpvalue implements VmObject {
  readonly objectType = 'upvalue';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  /** Next open upvalue of the same fiber, by decreasing stack slot. */
  next: ObjUpvalue | null = null;
  constructor(
    public cells: Value[],
    public index: number,
  ) {}

  close(): void {
    this.cells = [this.cells[this.index]!];
    this.index = 0;
  }
}

export class ObjClosure implements VmObject {
  readonly objectType = 'closure';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  constructor(
    readonly fn: ObjFunction,
    readonly upvalues: ObjUpvalue[],
  ) {}
}

export class ObjClass implements VmObject {
  readonly objectType = 'class';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  readonly methods = new Map<string, ObjClosure>();
  superclass: ObjClass | null = null;
  /** Cached `init` method (clox keeps it beside the method table too). */
  initializer: ObjClosure | null = null;
  /** The shape of a new instance: no fields. Each class has its own tree, so a shape implies the class. */
  readonly rootShape: Shape;
  /** Shapes created under rootShape, to cap the tree (see Shape.transition). */
  shapeCount = 1;
  /** Fields listed by all those shapes together (what a measurement of retained memory charges for them: vm/retained-heap.ts). */
  shapeFields = 0;
  /**
   * The most fields any shape of this class lists (at most MAX_SHAPE_FIELDS): a new instance's
   * `values` is allocated at this length, so it does not grow (V8 would give a pushed-to array a
   * backing store of ~17 slots). Slots past the instance's shape are not fields (see ObjInstance).
   */
  fieldCapacity = 0;
  constructor(readonly name: string) {
    this.rootShape = new Shape(this, [], new Map());
  }
}

/** Most fields an instance keeps in shape mode, and most shapes per class, before dictionary mode. */
const MAX_SHAPE_FIELDS = 64;
const MAX_SHAPES_PER_CLASS = 1024;

/**
 * Hidden classes for instances: which field lives in which slot of
 * `values`. Instances that gained the same fields in the same order share a
 * shape, so the interpreter's inline caches can remember "shape S: field x is
 * slot 2" per instruction and skip the lookup. Names live in Maps, never as
 * JS properties.
 */
export class Shape {
  private transitions: Map<string, Shape> | null = null;
  constructor(
    readonly klass: ObjClass,
    readonly names: readonly string[],
    private readonly slots: ReadonlyMap<string, number>,
  ) {}

  /** The slot of `name`, or -1. */
  slotOf(name: string): number {
    return this.slots.get(name) ?? -1;
  }

  /** The shape after adding field `name`, or null when the caps say: go dictionary. */
  transition(name: string): Shape | null {
    const known = this.transitions?.get(name);
    if (known !== undefined) return known;
    if (this.names.length >= MAX_SHAPE_FIELDS || this.klass.shapeCount >= MAX_SHAPES_PER_CLASS) return null;
    const slots = new Map(this.slots);
    slots.set(name, this.names.length);
    const next = new Shape(this.klass, [...this.names, name], slots);
    (this.transitions ??= new Map()).set(name, next);
    this.klass.shapeCount++;
    this.klass.shapeFields += next.names.length;
    if (next.names.length > this.klass.fieldCapacity) this.klass.fieldCapacity = next.names.length;
    return next;
  }
}

/** The shape of every instance in dictionary mode; never cached by the interpreter. */
let dictionaryShape: Shape | null = null;
function theDictionaryShape(): Shape {
  return (dictionaryShape ??= new Shape(new ObjClass('<dictionary>'), [], new Map()));
}

export class ObjInstance implements VmObject {
  readonly objectType = 'instance';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  /** Field layout; the dictionary shape once `dict` holds the fields instead. */
  shape: Shape;
  /**
   * Field values by slot (shape mode). Allocated at the class's fieldCapacity when the instance
   * is made, or NO_FIELDS (shared, never written) when that is 0, until the first field, so it may be longer than the instance's field
   * count: only slots below `shape.names.length` are fields; the rest hold null and are never
   * read as fields. Grows (by storing at its length) when an instance gains more fields than its
   * class had seen when the array was made.
   */
  values: Value[];
  /** Field values by name (dictionary mode, after too many fields or shapes). */
  dict: Map<string, Value> | null = null;
  constructor(readonly klass: ObjClass) {
    this.shape = klass.rootShape;
    const capacity = klass.fieldCapacity;
    this.values = capacity === 0 ? NO_FIELDS : newFieldValues(capacity);
  }

  /**
   * Store the value of a field the instance is gaining: `slot` is its field count before, and
   * the shape with the field exists already (so the class's fieldCapacity is above `slot`). A
   * preallocated slot is written in place; past the array's end (an instance made before its
   * class had seen this many fields) the array grows by one.
   */
  addField(slot: number, value: Value): void {
    const values = this.values;
    // The store in place and the one that grows the array are separate stores in the code: V8's
    // feedback on one store that saw both (and every class's arrays, since every SET_PROPERTY that
    // adds a field runs this) went megamorphic, a generic keyed store per field added.
    if (slot < values.length) values[slot] = value;
    else this.addFieldPastEnd(slot, value);
  }

  /** addField past the end of `values`: the first field (NO_FIELDS, shared, never written), or one more than the array holds. */
  private addFieldPastEnd(slot: number, value: Value): void {
    if (this.values === NO_FIELDS) this.values = newFieldValues(this.klass.fieldCapacity);
    const values = this.values;
    if (slot < values.length) values[slot] = value;
    else values.push(value);
  }

  get isDictionary(): boolean {
    return this.dict !== null;
  }

  getField(name: string): Value | undefined {
    if (this.dict !== null) return this.dict.get(name);
    const slot = this.shape.slotOf(name);
    return slot < 0 ? undefined : this.values[slot];
  }

  /**
   * Store a field. Returns what the store cost, in heap units (vm/costs.ts), which the
   * VM also charges as fuel: 0 for an existing field; a new field; plus a new shape's
   * slot map when the transition had to be created; plus the copy into a dictionary.
   */
  setField(name: string, value: Value): number {
    const dict = this.dict;
    if (dict !== null) {
      if (dict.has(name)) {
        dict.set(name, value);
        return 0;
      }
      dict.set(name, value);
      return HEAP_COST.field;
    }
    const slot = this.shape.slotOf(name);
    if (slot >= 0) {
      this.values[slot] = value;
      return 0;
    }
    const klass = this.klass;
    const shapesBefore = klass.shapeCount;
    const next = this.shape.transition(name);
    if (next !== null) {
      this.addField(next.names.length - 1, value);
      this.shape = next;
      return HEAP_COST.field + (klass.shapeCount !== shapesBefore ? HEAP_COST.shapeField * next.names.length : 0);
    }
    const copied = this.shape.names.length;
    this.toDictionary().set(name, value);
    return HEAP_COST.field + copied;
  }

  fieldNames(): string[] {
    return this.dict !== null ? [...this.dict.keys()] : [...this.shape.names];
  }

  private toDictionary(): Map<string, Value> {
    const dict = new Map<string, Value>();
    this.shape.names.forEach((name, slot) => dict.set(name, this.values[slot]!));
    this.values = NO_FIELDS;
    this.dict = dict;
    this.shape = theDictionaryShape();
    return dict;
  }
}

/** The field array of every instance without fields: shared, so never written (ObjInstance.addField). */
const NO_FIELDS: Value[] = [];

/**
 * A packed array of `n` nulls, sized exactly (V8 gives an array literal or a filled `new Array(n)`
 * a backing store of exactly n slots; a pushed-to `[]` gets ~17). Literals for the common sizes
 * keep the elements packed with no fill loop.
 */
function newFieldValues(n: number): Value[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [null];
    case 2:
      return [null, null];
    case 3:
      return [null, null, null];
    case 4:
      return [null, null, null, null];
    case 5:
      return [null, null, null, null, null];
    case 6:
      return [null, null, null, null, null, null];
    default: {
      const values: Value[] = new Array<Value>(n);
      for (let i = 0; i < n; i++) values[i] = null;
      return values;
    }
  }
}

export class ObjBoundMethod implements VmObject {
  readonly objectType = 'bound method';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  constructor(
    readonly receiver: Value,
    /** A spell method, or a built-in method of a string, list or map (vm/method-dispatch.ts). */
    readonly method: ObjClosure | MethodRow<never>,
  ) {}
}

export class ObjList implements VmObject {
  readonly objectType = 'list';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  /** True while vm/display.ts is showing this list (a list inside itself shows `[...]`). */
  displaying = false;
  constructor(readonly items: Value[]) {}
}

/** Numeric codes for host parameter types, checked on every host call. */
export const ParamCheck = {
  Any: 0,
  Number: 1,
  String: 2,
  Bool: 3,
  List: 4,
  Entity: 5,
  Function: 6,
  Nil: 7,
  Map: 8,
} as const;
export type ParamCheck = (typeof ParamCheck)[keyof typeof ParamCheck];

const PARAM_CHECKS: Record<ValueType, ParamCheck> = {
  any: ParamCheck.Any,
  number: ParamCheck.Number,
  string: ParamCheck.String,
  bool: ParamCheck.Bool,
  list: ParamCheck.List,
  entity: ParamCheck.Entity,
  function: ParamCheck.Function,
  nil: ParamCheck.Nil,
  map: ParamCheck.Map,
};

export function paramCheckOf(type: ValueType): ParamCheck {
  return PARAM_CHECKS[type] ?? ParamCheck.Any;
}

/**
 * Host functions whose implementations never charge the heap: the core builtins of plain numbers
 * (vm/builtins.ts marks them; vm/retained-heap-tiers.test.ts calls each with a context whose heap
 * charges throw) and the game API's functions but `nearby` and `within` (runtime/host/host-api.ts;
 * runtime/host/heap-free-hosts.test.ts). By identity: another host of the same name is not one of them.
 */
const HEAP_FREE_HOSTS = new WeakSet<HostFunction>();

/** Mark a host function as never charging the heap (see HEAP_FREE_HOSTS); returns it. */
export function heapFree<T extends HostFunction>(host: T): T {
  HEAP_FREE_HOSTS.add(host);
  return host;
}

/** A host function as a first-class spell value, with its checks precomputed. */
export class ObjHostFunction implements VmObject {
  readonly objectType = 'host function';
  readonly name: string;
  readonly minArity: number;
  readonly maxArity: number;
  readonly checks: Int32Array;
  /** True when no parameter needs a type check (all 'any'). */
  readonly unchecked: boolean;
  /** True when some parameter is a string: the VM charges 1 fuel per character of string arguments. */
  readonly takesText: boolean;
  /** Fuel a call costs before it runs (the spec's `fuel`). */
  readonly baseFuel: number;
  /** Whether callHost charges anything before the call (text or base fuel). */
  readonly chargesBefore: boolean;
  /** The implementation (host.impl, read once: the VM calls it on every call). */
  readonly impl: HostFunction['impl'];
  /**
   * Whether the implementation may charge the heap (ctx.chargeHeap, ctx.makeList): every host
   * function but those marked heap-free (HEAP_FREE_HOSTS). A charge past a retained heap budget measures
   * the fiber during the call, so compiled code holding the call's values in locals writes them to
   * the stack first (MEASURABLE, vm/generator/case-writer.ts) — not for a call that cannot charge.
   */
  readonly chargesHeap: boolean;
  constructor(readonly host: HostFunction) {
    this.name = host.name;
    this.impl = host.impl;
    this.chargesHeap = !HEAP_FREE_HOSTS.has(host);
    const { min, max } = hostArity(host);
    this.minArity = min;
    this.maxArity = max;
    this.checks = Int32Array.from(host.params, (p) => PARAM_CHECKS[p.type] ?? ParamCheck.Any);
    this.unchecked = this.checks.every((c) => c === ParamCheck.Any);
    this.takesText = this.checks.some((c) => c === ParamCheck.String);
    this.baseFuel = Math.max(0, host.fuel ?? 0);
    this.chargesBefore = this.takesText || this.baseFuel > 0;
  }
}

export function isHostObject(value: Value): value is HostObject {
  return typeof value === 'object' && value !== null && value.objectType === 'host';
}

export function isCallable(value: Value): boolean {
  return (
    value instanceof ObjClosure ||
    value instanceof ObjBoundMethod ||
    value instanceof ObjClass ||
    value instanceof ObjHostFunction
  );
}

/** Lox truthiness: only nil and false are falsey. */
export function isFalsey(value: Value): boolean {
  return value === null || value === false;
}

/** `==`: numbers and strings by value (NaN != NaN), objects by identity, host objects by `equals`. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== 'number' || a === a;
  return isHostObject(a) && isHostObject(b) && a.equals(b);
}

/** Whether `value` matches a host parameter type. */
export function matchesParam(check: ParamCheck, value: Value): boolean {
  switch (check) {
    case ParamCheck.Any:
      return true;
    case ParamCheck.Number:
      return typeof value === 'number';
    case ParamCheck.String:
      return typeof value === 'string';
    case ParamCheck.Bool:
      return typeof value === 'boolean';
    case ParamCheck.List:
      return value instanceof ObjList;
    case ParamCheck.Entity:
      // isHostObject written out: this load's feedback then sees only what spells pass as entities, where
      // isHostObject's own sees every kind of object and goes megamorphic (6% of a 10k-entity world step).
      return typeof value === 'object' && value !== null && value.objectType === 'host';
    case ParamCheck.Function:
      return isCallable(value);
    case ParamCheck.Nil:
      return value === null;
    case ParamCheck.Map:
      return value instanceof ObjMap;
    default:
      return true;
  }
}

const TYPE_NAMES: Record<ValueType, string> = {
  any: 'a value',
  number: 'a number',
  string: 'a string',
  bool: 'a boolean',
  list: 'a list',
  entity: 'an entity',
  function: 'a function',
  nil: 'nil',
  map: 'a map',
};

/** "a number", "an entity" … for argument-type messages. */
export function describeType(type: ValueType): string {
  return TYPE_NAMES[type] ?? 'a value';
}
