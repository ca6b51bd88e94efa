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

import { quoted } from './bounded-text.js';
import { VerifyError } from './errors.js';
import { ObjMap, mapKeyProblem } from './map-object.js';
import { findMethod } from './method-dispatch.js';
import { ObjBoundMethod, ObjClass, ObjClosure, ObjFunction, ObjHostFunction, ObjInstance, ObjList, ObjUpvalue, isHostObject } from './objects.js';
import type { HostObject, Value, VmObject } from './value.js';
import { MAX_SNAPSHOT_OBJECTS as MAX_OBJECTS, MAX_TRAMPOLINE_ARGC } from './vm-snapshot-schema.js';

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

/**
 * Rebuilds the object table: allocate every object, then link them, so
 * references may point anywhere (cycles too). The data's shape was checked
 * against the schema first (vm/vm-snapshot-schema.ts); the reader checks
 * what a schema cannot: that references name objects of the right kind, that
 * counts fit the module. Messages name the field as a JSON path.
 */
export class HeapReader {
  private readonly built: unknown[];

  constructor(
    private readonly ctx: HeapContext,
    private readonly objects: readonly unknown[],
    /** The stack array of fiber `i`, for open upvalues. */
    private readonly stackOfFiber: (index: number) => Value[] | null,
    /** The object table's JSON path, for messages (`$.objects`). */
    private readonly path = '$.objects',
  ) {
    if (!Array.isArray(objects) || objects.length > MAX_OBJECTS) bad(`${path} is malformed.`);
    this.built = objects.map((o, i) => this.allocate(o, i));
    objects.forEach((o, i) => this.link(o as Record<string, unknown>, i));
    objects.forEach((o, i) => this.bind(o as Record<string, unknown>, i));
  }

  private at(i: number, field?: string): string {
    return field === undefined ? `${this.path}[${i}]` : `${this.path}[${i}].${field}`;
  }

  /** The value a ValueJson stands for; `path` names it in messages. */
  value(v: unknown, path: string): Value {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) bad(`${path}: a number is not finite.`);
      return v;
    }
    if (typeof v !== 'object' || Array.isArray(v)) bad(`${path} is not a value.`);
    const o = v as Record<string, unknown>;
    if ('r' in o) {
      const target = this.objectAt(o['r'], `${path}.r`);
      if (target instanceof ObjUpvalue || !isValueObject(target)) bad(`${path}.r: object ${String(o['r'])} is not a value.`);
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
      bad(`${path}.n is not a number JSON cannot hold.`);
    }
    if ('u' in o && o['u'] === 1) return this.ctx.undefinedValue;
    bad(`${path} is not a value.`);
  }

  /** The object a reference names (any kind). */
  objectAt(ref: unknown, path: string): unknown {
    if (typeof ref !== 'number' || !Number.isInteger(ref) || ref < 0 || ref >= this.built.length) bad(`${path}: reference ${String(ref)} names no object.`);
    return this.built[ref];
  }

  closureAt(ref: unknown, path: string): ObjClosure {
    const o = this.objectAt(ref, path);
    if (!(o instanceof ObjClosure)) bad(`${path}: reference ${String(ref)} is not a closure.`);
    return o;
  }

  upvalueAt(ref: unknown, path: string): ObjUpvalue {
    const o = this.objectAt(ref, path);
    if (!(o instanceof ObjUpvalue)) bad(`${path}: reference ${String(ref)} is not an upvalue.`);
    return o;
  }

  private classAt(ref: unknown, path: string): ObjClass {
    const o = this.objectAt(ref, path);
    if (!(o instanceof ObjClass)) bad(`${path}: reference ${String(ref)} is not a class.`);
    return o;
  }

  private allocate(raw: unknown, i: number): unknown {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) bad(`${this.at(i)} is not an object.`);
    const o = raw as Record<string, unknown>;
    switch (o['t']) {
      case 'closure':
        return new ObjClosure(this.functionOf(o, i), []);
      case 'upvalue':
        return new ObjUpvalue([null], 0);
      case 'class':
        if (typeof o['name'] !== 'string') bad(`${this.at(i, 'name')} must be a string.`);
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
        const name = o['name'];
        const host = this.ctx.hostImports.find((h) => h.name === name);
        if (host === undefined) bad(`${this.at(i, 'name')}: host function ${typeof name === 'string' ? quoted(name) : '?'} is not imported by this module.`);
        return host;
      }
      case 'object': {
        const codec = this.ctx.hostObjects;
        if (codec === null) bad(`${this.at(i)}: a host object cannot be restored (no host object codec).`);
        return codec.decode(o['data']);
      }
      default:
        bad(`${this.at(i, 't')}: unknown object type ${typeof o['t'] === 'string' ? quoted(o['t']) : '?'}.`);
    }
  }

  private functionOf(o: Record<string, unknown>, i: number): ObjFunction {
    const fn = o['fn'];
    if (fn === -1) {
      const argc = o['argc'];
      if (typeof argc !== 'number' || !Number.isInteger(argc) || argc < 0 || argc > MAX_TRAMPOLINE_ARGC) bad(`${this.at(i, 'argc')}: a trampoline needs an argument count in [0, ${MAX_TRAMPOLINE_ARGC}].`);
      return this.ctx.trampoline(argc).fn;
    }
    if (typeof fn !== 'number' || !Number.isInteger(fn) || fn < 1 || fn >= this.ctx.functions.length) bad(`${this.at(i, 'fn')}: ${String(fn)} names no function of the module.`);
    return this.ctx.functions[fn]!;
  }

  private link(o: Record<string, unknown>, i: number): void {
    const target = this.built[i];
    switch (o['t']) {
      case 'closure': {
        const closure = target as ObjClosure;
        const up = o['up'];
        const expected = closure.fn.index < 0 ? 0 : closure.fn.proto.upvalues.length;
        if (!Array.isArray(up) || up.length !== expected) bad(`${this.at(i, 'up')}: the function captures ${expected} upvalues.`);
        up.forEach((ref, k) => closure.upvalues.push(this.upvalueAt(ref, `${this.at(i, 'up')}[${k}]`)));
        if (closure.fn.index < 0) this.built[i] = this.ctx.trampoline(closure.fn.arity); // trampolines are the VM's own
        return;
      }
      case 'upvalue': {
        const upvalue = target as ObjUpvalue;
        if ('fiber' in o) {
          const stack = this.stackOfFiber(o['fiber'] as number);
          const slot = o['slot'];
          if (stack === null) bad(`${this.at(i, 'fiber')}: the upvalue is open into a fiber that is not in the snapshot.`);
          if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0 || slot >= stack.length) bad(`${this.at(i, 'slot')} points outside its fiber's stack.`);
          upvalue.cells = stack;
          upvalue.index = slot;
        } else if (!('v' in o)) {
          bad(`${this.at(i)}: an upvalue is closed (v) or open (fiber and slot).`);
        }
        return; // a closed one gets its value in fillValues
      }
      case 'class': {
        const klass = target as ObjClass;
        if (o['sup'] !== null) klass.superclass = this.classAt(o['sup'], this.at(i, 'sup'));
        const methods = o['methods'];
        if (!Array.isArray(methods)) bad(`${this.at(i, 'methods')} must be an array.`);
        methods.forEach((entry: unknown, k) => {
          if (!Array.isArray(entry) || typeof entry[0] !== 'string') bad(`${this.at(i, 'methods')}[${k}] must be [name, closure].`);
          klass.methods.set(entry[0], this.closureAt(entry[1], `${this.at(i, 'methods')}[${k}][1]`));
        });
        klass.initializer = klass.methods.get('init') ?? null;
        return;
      }
      case 'instance': {
        const instance = new ObjInstance(this.classAt(o['cls'], this.at(i, 'cls')));
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
    const receiver = recv !== null && typeof recv === 'object' && 'r' in recv ? this.objectAt((recv as { r: unknown }).r, this.at(i, 'recv.r')) : this.value(recv, this.at(i, 'recv'));
    if (typeof receiver === 'object' && receiver !== null && (receiver instanceof ObjUpvalue || !isValueObject(receiver))) {
      bad(`${this.at(i, 'recv')} is not a value a method can be bound to.`);
    }
    if (typeof method === 'string') {
      // A built-in method: it must be one the receiver (a string, list or map) really has.
      const row = findMethod(receiver as Value, method);
      if (row === undefined) bad(`${this.at(i, 'method')} names a built-in method its receiver does not have.`);
      this.built[i] = new ObjBoundMethod(receiver as Value, row);
      return;
    }
    if (!(receiver instanceof ObjInstance || isHostObject(receiver as Value))) bad(`${this.at(i, 'recv')}: a method is bound to an instance or a host object.`);
    this.built[i] = new ObjBoundMethod(receiver as Value, this.closureAt(method, this.at(i, 'method')));
  }

  /** Fill what holds values (which may be any object): closed upvalues, instances' fields, lists' items. Called once all objects exist. */
  fillValues(): void {
    this.objects.forEach((raw, i) => {
      const o = raw as Record<string, unknown>;
      switch (o['t']) {
        case 'upvalue':
          if (!('fiber' in o)) (this.built[i] as ObjUpvalue).cells = [this.value(o['v'], this.at(i, 'v'))];
          return;
        case 'instance': {
          const fields = o['fields'];
          if (!Array.isArray(fields)) bad(`${this.at(i, 'fields')} must be an array.`);
          const instance = this.built[i] as ObjInstance;
          fields.forEach((entry: unknown, k) => {
            const at = `${this.at(i, 'fields')}[${k}]`;
            if (!Array.isArray(entry) || typeof entry[0] !== 'string') bad(`${at} must be [name, value].`);
            instance.setField(entry[0], this.value(entry[1], `${at}[1]`));
          });
          return;
        }
        case 'list': {
          const items = o['items'];
          if (!Array.isArray(items)) bad(`${this.at(i, 'items')} must be an array.`);
          const list = this.built[i] as ObjList;
          items.forEach((item: unknown, k) => list.items.push(this.value(item, `${this.at(i, 'items')}[${k}]`)));
          return;
        }
        case 'map': {
          const entries = o['entries'];
          if (!Array.isArray(entries)) bad(`${this.at(i, 'entries')} must be an array.`);
          const map = this.built[i] as ObjMap;
          entries.forEach((entry: unknown, k) => {
            const at = `${this.at(i, 'entries')}[${k}]`;
            if (!Array.isArray(entry) || entry.length !== 2) bad(`${at} must be [key, value].`);
            const key = this.value(entry[0], `${at}[0]`);
            if (mapKeyProblem(key) !== null || map.has(key)) bad(`${at}[0] cannot be a key, or is one twice.`);
            map.set(key, this.value(entry[1], `${at}[1]`));
          });
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
