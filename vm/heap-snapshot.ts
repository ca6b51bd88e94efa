/**
 * The VM heap as JSON-safe data: every object reachable from some roots
 * (globals, fiber stacks) written once into a table and referred to by its
 * position, so shared objects stay shared and cycles survive — a graph, not
 * a tree. Values:
 *
 *   null, true, false, a finite number, a string   as themselves
 *   { "n": "NaN" | "Infinity" | "-Infinity" | "-0" } numbers JSON cannot hold
 *   { "r": 7 }                                       the object at objects[7]
 *   { "u": 1 }                                       a global never defined
 *
 * Objects (`t` says which):
 *
 *   closure   { fn, up: [upvalue refs] }        fn: module function index; -1 with argc: the VM's entry trampoline
 *   upvalue   { v } closed, or { fiber, slot } open (into that fiber's stack)
 *   class     { name, sup, methods: [[name, closure ref]] }
 *   instance  { cls, fields: [[name, value]] }  fields in the order they were added
 *   list      { items: [values] }
 *   bound     { recv, method: closure ref | 'append' | 'remove' }
 *   host      { name }                           a host function as a value, bound by name
 *   object    { data }                           a host object (an entity), encoded by the embedder's codec
 *
 * Reading checks every reference and type (a tampered snapshot is a
 * VerifyError, never a raw exception) and the object table as a whole is
 * rebuilt in two passes: allocate, then link, so cycles need no order.
 * vm/fiber-snapshot.ts uses this for globals and fibers.
 */

import { VerifyError } from './errors.js';
import { ObjMap, mapKeyProblem } from './map-object.js';
import { findMethod } from './method-dispatch.js';
import { ObjBoundMethod, ObjClass, ObjClosure, ObjFunction, ObjHostFunction, ObjInstance, ObjList, ObjUpvalue, isHostObject } from './objects.js';
import type { HostObject, Value, VmObject } from './value.js';

export type ValueJson = null | boolean | number | string | { readonly n: string } | { readonly r: number } | { readonly u: 1 };

export type ObjectJson =
  | { readonly t: 'closure'; readonly fn: number; readonly argc?: number; readonly up: readonly number[] }
  | { readonly t: 'upvalue'; readonly v?: ValueJson; readonly fiber?: number; readonly slot?: number }
  | { readonly t: 'class'; readonly name: string; readonly sup: number | null; readonly methods: readonly (readonly [string, number])[] }
  | { readonly t: 'instance'; readonly cls: number; readonly fields: readonly (readonly [string, ValueJson])[] }
  | { readonly t: 'list'; readonly items: readonly ValueJson[] }
  | { readonly t: 'map'; readonly entries: readonly (readonly [ValueJson, ValueJson])[] }
  /** `method`: a closure's reference, or the name of a built-in method of the receiver (a string, list or map). */
  | { readonly t: 'bound'; readonly recv: ValueJson; readonly method: number | string }
  | { readonly t: 'host'; readonly name: string }
  | { readonly t: 'object'; readonly data: unknown };

/** How the embedder's host objects (the world's entities) become data and back. */
export interface HostObjectCodec {
  /** JSON-safe data for a host object; throw to refuse one that cannot be saved. */
  encode(object: HostObject): unknown;
  /** The host object for that data; throw VerifyError (or the embedder's own error) for bad data. */
  decode(data: unknown): HostObject;
}

/** What the writer and reader need from the VM: its functions, host imports and entry trampolines. */
export interface HeapContext {
  readonly functions: readonly ObjFunction[];
  readonly hostImports: readonly ObjHostFunction[];
  /** The value of a global that was never defined. */
  readonly undefinedValue: VmObject;
  trampoline(argc: number): ObjClosure;
  readonly hostObjects: HostObjectCodec | null;
}

/** Upper bounds a reader enforces (untrusted input). */
const MAX_OBJECTS = 1_000_000;
const MAX_TRAMPOLINE_ARGC = 255;

function bad(message: string): never {
  throw new VerifyError(`Snapshot: ${message}`);
}

/** Writes objects into one table as it meets them; `value()` is called for every root. */
export class HeapWriter {
  readonly objects: ObjectJson[] = [];
  private readonly ids = new Map<object, number>();
  private readonly pending: [object, number][] = [];

  constructor(
    private readonly ctx: HeapContext,
    /** The fiber index of an open upvalue's stack (its `cells` array), or -1 when that fiber is not saved. */
    private readonly fiberOfStack: (cells: Value[]) => number,
  ) {}

  value(v: Value): ValueJson {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return { n: 'NaN' };
      if (v === Infinity) return { n: 'Infinity' };
      if (v === -Infinity) return { n: '-Infinity' };
      if (Object.is(v, -0)) return { n: '-0' };
      return v;
    }
    if (v === this.ctx.undefinedValue) return { u: 1 };
    return { r: this.ref(v) };
  }

  /** The table index of an object, writing it (and, later, what it refers to) on first sight. */
  ref(o: object): number {
    const known = this.ids.get(o);
    if (known !== undefined) return known;
    const id = this.objects.length;
    this.ids.set(o, id);
    this.objects.push({ t: 'host', name: '' }); // a placeholder until drained
    this.pending.push([o, id]);
    if (this.pending.length === 1) this.drain();
    return id;
  }

  /** Fill the placeholders breadth-first: no recursion, so deep lists or long chains cannot overflow the JS stack. */
  private drain(): void {
    for (let i = 0; i < this.pending.length; i++) {
      const [o, id] = this.pending[i]!;
      this.objects[id] = this.encode(o);
    }
    this.pending.length = 0;
  }

  private encode(o: object): ObjectJson {
    if (o instanceof ObjClosure) {
      const index = o.fn.index;
      const up = o.upvalues.map((u) => this.ref(u));
      return index < 0 ? { t: 'closure', fn: -1, argc: o.fn.arity, up } : { t: 'closure', fn: index, up };
    }
    if (o instanceof ObjUpvalue) {
      if (o.cells.length === 1 && o.index === 0 && this.fiberOfStack(o.cells) < 0) return { t: 'upvalue', v: this.value(o.cells[0]!) };
      const fiber = this.fiberOfStack(o.cells);
      // Open into a fiber that is not saved (a debugger's paused cast): keep the value it holds now.
      if (fiber < 0) return { t: 'upvalue', v: this.value(o.cells[o.index]!) };
      return { t: 'upvalue', fiber, slot: o.index };
    }
    if (o instanceof ObjClass) {
      return {
        t: 'class',
        name: o.name,
        sup: o.superclass === null ? null : this.ref(o.superclass),
        methods: [...o.methods].map(([name, m]) => [name, this.ref(m)] as const),
      };
    }
    if (o instanceof ObjInstance) {
      return { t: 'instance', cls: this.ref(o.klass), fields: o.fieldNames().map((name) => [name, this.value(o.getField(name)!)] as const) };
    }
    if (o instanceof ObjList) return { t: 'list', items: o.items.map((v) => this.value(v)) };
    if (o instanceof ObjMap) return { t: 'map', entries: [...o.pairs()].map(([k, v]) => [this.value(k), this.value(v)] as const) };
    if (o instanceof ObjBoundMethod) {
      return { t: 'bound', recv: this.value(o.receiver), method: o.method instanceof ObjClosure ? this.ref(o.method) : o.method.name };
    }
    if (o instanceof ObjHostFunction) return { t: 'host', name: o.name };
    if (isHostObject(o as Value)) {
      const codec = this.ctx.hostObjects;
      if (codec === null) throw new VerifyError(`Snapshot: a ${(o as HostObject).hostType} cannot be saved (no host object codec).`);
      return { t: 'object', data: codec.encode(o as HostObject) };
    }
    throw new VerifyError(`Snapshot: a ${(o as VmObject).objectType ?? 'value'} cannot be saved.`);
  }
}

/** Rebuilds the object table: allocate every object, then link them, so references may point anywhere (cycles too). */
export class HeapReader {
  private readonly built: unknown[];

  constructor(
    private readonly ctx: HeapContext,
    private readonly objects: readonly unknown[],
    /** The stack array of fiber `i`, for open upvalues. */
    private readonly stackOfFiber: (index: number) => Value[] | null,
  ) {
    if (!Array.isArray(objects) || objects.length > MAX_OBJECTS) bad('the object table is malformed.');
    this.built = objects.map((o, i) => this.allocate(o, i));
    objects.forEach((o, i) => this.link(o as Record<string, unknown>, i));
    objects.forEach((o, i) => this.bind(o as Record<string, unknown>, i));
  }

  value(v: unknown): Value {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) bad('a number is not finite.');
      return v;
    }
    if (typeof v !== 'object' || Array.isArray(v)) bad('a value is malformed.');
    const o = v as Record<string, unknown>;
    if ('r' in o) {
      const target = this.objectAt(o['r']);
      if (target instanceof ObjUpvalue || !isValueObject(target)) bad(`reference ${String(o['r'])} is not a value.`);
      return target as Value;
    }
    if ('n' in o) {
      switch (o['n']) {
        case 'NaN':
          return NaN;
        case 'Infinity':
          return Infinity;
        case '-Infinity':
          return -Infinity;
        case '-0':
          return -0;
      }
      bad('a number is malformed.');
    }
    if ('u' in o && o['u'] === 1) return this.ctx.undefinedValue;
    bad('a value is malformed.');
  }

  /** The object a reference names (any kind). */
  objectAt(ref: unknown): unknown {
    if (typeof ref !== 'number' || !Number.isInteger(ref) || ref < 0 || ref >= this.built.length) bad(`reference ${String(ref)} names no object.`);
    return this.built[ref];
  }

  closureAt(ref: unknown): ObjClosure {
    const o = this.objectAt(ref);
    if (!(o instanceof ObjClosure)) bad(`reference ${String(ref)} is not a closure.`);
    return o;
  }

  upvalueAt(ref: unknown): ObjUpvalue {
    const o = this.objectAt(ref);
    if (!(o instanceof ObjUpvalue)) bad(`reference ${String(ref)} is not an upvalue.`);
    return o;
  }

  private classAt(ref: unknown): ObjClass {
    const o = this.objectAt(ref);
    if (!(o instanceof ObjClass)) bad(`reference ${String(ref)} is not a class.`);
    return o;
  }

  private allocate(raw: unknown, i: number): unknown {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) bad(`object ${i} is malformed.`);
    const o = raw as Record<string, unknown>;
    switch (o['t']) {
      case 'closure':
        return new ObjClosure(this.functionOf(o, i), []);
      case 'upvalue':
        return new ObjUpvalue([null], 0);
      case 'class':
        if (typeof o['name'] !== 'string') bad(`class ${i} has no name.`);
        return new ObjClass(o['name']);
      case 'instance':
        return { pendingInstance: true };
      case 'list':
        return new ObjList([]);
      case 'map':
        return new ObjMap();
      case 'bound':
        return { pendingBound: true };
      case 'host': {
        const host = this.ctx.hostImports.find((h) => h.name === o['name']);
        if (host === undefined) bad(`host function ${JSON.stringify(o['name'])} is not imported by this module.`);
        return host;
      }
      case 'object': {
        const codec = this.ctx.hostObjects;
        if (codec === null) bad('a host object cannot be restored (no host object codec).');
        return codec.decode(o['data']);
      }
      default:
        bad(`object ${i} has unknown type ${JSON.stringify(o['t'])}.`);
    }
  }

  private functionOf(o: Record<string, unknown>, i: number): ObjFunction {
    const fn = o['fn'];
    if (fn === -1) {
      const argc = o['argc'];
      if (typeof argc !== 'number' || !Number.isInteger(argc) || argc < 0 || argc > MAX_TRAMPOLINE_ARGC) bad(`closure ${i} has a bad trampoline.`);
      return this.ctx.trampoline(argc).fn;
    }
    if (typeof fn !== 'number' || !Number.isInteger(fn) || fn < 1 || fn >= this.ctx.functions.length) bad(`closure ${i} names no function.`);
    return this.ctx.functions[fn]!;
  }

  private link(o: Record<string, unknown>, i: number): void {
    const target = this.built[i];
    switch (o['t']) {
      case 'closure': {
        const closure = target as ObjClosure;
        const up = o['up'];
        const expected = closure.fn.index < 0 ? 0 : closure.fn.proto.upvalues.length;
        if (!Array.isArray(up) || up.length !== expected) bad(`closure ${i} has the wrong number of upvalues.`);
        for (const ref of up) closure.upvalues.push(this.upvalueAt(ref));
        if (closure.fn.index < 0) this.built[i] = this.ctx.trampoline(closure.fn.arity); // trampolines are the VM's own
        return;
      }
      case 'upvalue': {
        const upvalue = target as ObjUpvalue;
        if ('fiber' in o) {
          const stack = this.stackOfFiber(o['fiber'] as number);
          const slot = o['slot'];
          if (stack === null) bad(`upvalue ${i} is open into a fiber that is not in the snapshot.`);
          if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0 || slot >= stack.length) bad(`upvalue ${i} points outside its fiber's stack.`);
          upvalue.cells = stack;
          upvalue.index = slot;
        }
        return; // a closed one gets its value in fillValues
      }
      case 'class': {
        const klass = target as ObjClass;
        if (o['sup'] !== null) klass.superclass = this.classAt(o['sup']);
        const methods = o['methods'];
        if (!Array.isArray(methods)) bad(`class ${i} has no method table.`);
        for (const entry of methods) {
          if (!Array.isArray(entry) || typeof entry[0] !== 'string') bad(`class ${i} has a malformed method.`);
          klass.methods.set(entry[0], this.closureAt(entry[1]));
        }
        klass.initializer = klass.methods.get('init') ?? null;
        return;
      }
      case 'instance': {
        const instance = new ObjInstance(this.classAt(o['cls']));
        this.built[i] = instance;
        return;
      }
    }
  }

  /** Bound methods, once every instance and list exists (their receivers). */
  private bind(o: Record<string, unknown>, i: number): void {
    if (o['t'] !== 'bound') return;
    const method = o['method'];
    const recv = o['recv'];
    const receiver = recv !== null && typeof recv === 'object' && 'r' in recv ? this.objectAt((recv as { r: unknown }).r) : this.value(recv);
    if (typeof method === 'string') {
      // A built-in method: it must be one the receiver (a string, list or map) really has.
      const row = findMethod(receiver as Value, method);
      if (row === undefined) bad(`bound method ${i} names a built-in method its receiver does not have.`);
      this.built[i] = new ObjBoundMethod(receiver as Value, row);
      return;
    }
    if (!(receiver instanceof ObjInstance || isHostObject(receiver as Value))) bad(`bound method ${i} has no receiver.`);
    this.built[i] = new ObjBoundMethod(receiver as Value, this.closureAt(method));
  }

  /** Fill what holds values (which may be any object): closed upvalues, instances' fields, lists' items. Called once all objects exist. */
  fillValues(): void {
    this.objects.forEach((raw, i) => {
      const o = raw as Record<string, unknown>;
      switch (o['t']) {
        case 'upvalue':
          if (!('fiber' in o)) (this.built[i] as ObjUpvalue).cells = [this.value(o['v'])];
          return;
        case 'instance': {
          const fields = o['fields'];
          if (!Array.isArray(fields)) bad(`instance ${i} has no fields.`);
          const instance = this.built[i] as ObjInstance;
          for (const entry of fields) {
            if (!Array.isArray(entry) || typeof entry[0] !== 'string') bad(`instance ${i} has a malformed field.`);
            instance.setField(entry[0], this.value(entry[1]));
          }
          return;
        }
        case 'list': {
          const items = o['items'];
          if (!Array.isArray(items)) bad(`list ${i} has no items.`);
          const list = this.built[i] as ObjList;
          for (const item of items) list.items.push(this.value(item));
          return;
        }
        case 'map': {
          const entries = o['entries'];
          if (!Array.isArray(entries)) bad(`map ${i} has no entries.`);
          const map = this.built[i] as ObjMap;
          for (const entry of entries) {
            if (!Array.isArray(entry) || entry.length !== 2) bad(`map ${i} has a malformed entry.`);
            const key = this.value(entry[0]);
            if (mapKeyProblem(key) !== null || map.has(key)) bad(`map ${i} has a key that cannot be one, or twice.`);
            map.set(key, this.value(entry[1]));
          }
          return;
        }
      }
    });
  }
}

function isValueObject(o: unknown): boolean {
  return (
    o instanceof ObjClosure ||
    o instanceof ObjClass ||
    o instanceof ObjInstance ||
    o instanceof ObjList ||
    o instanceof ObjMap ||
    o instanceof ObjBoundMethod ||
    o instanceof ObjHostFunction ||
    isHostObject(o as Value)
  );
}
