/**
 * Edit and continue: a cast waiting in a module that a reload replaces
 * resumes in the new code (World.loadSpells' `inFlight: 'continue'`).
 *
 * The rule, frame by frame of the waiting stack (outermost first):
 *
 * - **The function** is the one of the same name in the new module (the
 *   k-th of that name, in module order, when several share it), of the same
 *   kind and arity, capturing the same variables (upvalues) the same way.
 * - **The wait** a frame stands at is a call: the innermost frame's is the
 *   host call that suspended it (`wait`), an outer frame's the call of the
 *   function the next frame runs. A call is known by what it calls — the host
 *   function or method by name, a function by the global or local it was read
 *   from — and the frame goes to the call of the same name at the same
 *   position among that function's calls of that name: the cast waiting at
 *   the second `wait` of `aura` resumes after the second `wait` of the new
 *   `aura`, whatever was added or removed around it.
 * - **Locals** go by name: a local of the new function live at the new wait
 *   takes the value of the old local of that name live at the old wait (the
 *   k-th of that name by slot, for shadowed names); a new one is nil; one the
 *   new code dropped is gone. Values an expression was part-way through when
 *   the cast waited (`1 + wait(1)`) carry over by position when the new wait
 *   has as many.
 * - **Function values** the cast holds (a closure in a local, a method of a
 *   class in its heap) go to their new versions by the same function rule.
 *
 * Where one of these finds no counterpart (the function is gone, it has
 * fewer calls of that name, a different arity or captures, an expression
 * part-way through has no place in the new code …) the cast keeps its old
 * code and the reload says why. The mapped fibers are then put into the new
 * VM by the snapshot restore (vm/fiber-snapshot.ts), which checks them as
 * untrusted data — each frame against the verifier of the new code — so a
 * mapping that does not fit is refused, never run.
 */

import { VerifyError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import { restoreVm, saveVm, type FiberJson, type FrameJson, type VmSnapshot } from '../../vm/fiber-snapshot.js';
import type { HostObjectCodec, ObjectJson, ValueJson } from '../../vm/heap-snapshot.js';
import type { FunctionProto, Module } from '../../vm/module.js';
import { Op, instructionSize } from '../../vm/opcodes.js';
import type { HostObject } from '../../vm/value.js';
import { stackDepths } from '../../vm/verifier.js';
import type { VM } from '../../vm/vm.js';

/** A call in a function: where it is, what it calls, and its place among the function's calls of that name. */
interface CallSite {
  readonly pc: number;
  /** The ip just after it (where a frame waiting in it stands). */
  readonly next: number;
  /** 'host wait', 'method attack', 'call helper', 'call ?' (a callee the rule cannot name). */
  readonly key: string;
  readonly ordinal: number;
}

/** A function's calls, by the ip after each and by key; its verifier stack depths. */
interface FunctionSites {
  readonly byNext: Map<number, CallSite>;
  readonly byKey: Map<string, CallSite[]>;
  readonly depths: Int32Array;
}

const CALL_OPS: ReadonlySet<number> = new Set([Op.CALL, Op.INVOKE, Op.SUPER_INVOKE, Op.CALL_HOST]);

/** The correspondence between two versions of a module: functions, and calls within them (worked out once per reload, per function on demand). */
export class CodeCorrespondence {
  private readonly functionMap: Int32Array;
  private readonly noFunction = new Map<number, string>();
  private readonly sites = new Map<Module, Map<number, FunctionSites>>();

  constructor(
    readonly before: Module,
    readonly after: Module,
  ) {
    this.functionMap = new Int32Array(before.functions.length).fill(-1);
    const byName = new Map<string, number[]>();
    after.functions.forEach((f, i) => byName.set(f.name, [...(byName.get(f.name) ?? []), i]));
    const seen = new Map<string, number>();
    before.functions.forEach((f, i) => {
      const k = seen.get(f.name) ?? 0;
      seen.set(f.name, k + 1);
      const j = byName.get(f.name)?.[k];
      const name = describeFunction(f);
      if (j === undefined) return void this.noFunction.set(i, `the new code has no ${name}`);
      const g = after.functions[j]!;
      if (g.kind !== f.kind) return void this.noFunction.set(i, `${name} is a ${g.kind} in the new code`);
      if (g.arity !== f.arity) return void this.noFunction.set(i, `${name} takes ${g.arity} parameters in the new code, not ${f.arity}`);
      if (!sameCaptures(f, g)) return void this.noFunction.set(i, `${name} captures other variables of its enclosing function in the new code`);
      this.functionMap[i] = j;
    });
  }

  /** The new index of an old function, or why there is none. */
  functionFor(index: number): number | string {
    const j = this.functionMap[index];
    return j !== undefined && j >= 0 ? j : (this.noFunction.get(index) ?? `function ${index} is not in the old code`);
  }

  private readonly plans = new Map<string, FramePlan | string>();

  /** Where a frame of old function `oldIndex` standing at `ip` goes in new function `newIndex` (or why nowhere). */
  planOf(oldIndex: number, newIndex: number, ip: number, innermost: boolean): FramePlan | string {
    const key = `${oldIndex} ${ip} ${innermost ? 1 : 0}`;
    let plan = this.plans.get(key);
    if (plan === undefined) this.plans.set(key, (plan = planFrame(this, oldIndex, newIndex, ip, innermost)));
    return plan;
  }

  sitesOf(module: Module, index: number): FunctionSites {
    let perModule = this.sites.get(module);
    if (perModule === undefined) this.sites.set(module, (perModule = new Map()));
    let sites = perModule.get(index);
    if (sites === undefined) perModule.set(index, (sites = callSites(module, index)));
    return sites;
  }
}

function describeFunction(f: FunctionProto): string {
  return f.kind === 'spell' ? `spell '${f.name}'` : f.kind === 'script' ? 'top-level script' : `function '${f.name}'`;
}

function sameCaptures(f: FunctionProto, g: FunctionProto): boolean {
  return f.upvalues.length === g.upvalues.length && f.upvalues.every((u, i) => u.isLocal === g.upvalues[i]!.isLocal && u.index === g.upvalues[i]!.index);
}

/** Every call instruction of a function, keyed by what it calls (see the rule above). */
function callSites(module: Module, index: number): FunctionSites {
  const fn = module.functions[index]!;
  const code = fn.code;
  const depths = stackDepths(module, index);
  const starts: number[] = [];
  const byNext = new Map<number, CallSite>();
  const byKey = new Map<string, CallSite[]>();
  for (let pc = 0; pc < code.length; pc += instructionSize(code[pc]!)) {
    starts.push(pc);
    const op = code[pc]!;
    if (!CALL_OPS.has(op)) continue;
    const key = callKey(module, fn, code, pc, starts, depths);
    const list = byKey.get(key) ?? [];
    const site: CallSite = { pc, next: pc + instructionSize(op), key, ordinal: list.length };
    list.push(site);
    byKey.set(key, list);
    byNext.set(site.next, site);
  }
  return { byNext, byKey, depths };
}

function callKey(module: Module, fn: FunctionProto, code: Int32Array, pc: number, starts: readonly number[], depths: Int32Array): string {
  const op = code[pc]!;
  if (op === Op.CALL_HOST) return `host ${module.hostImports[code[pc + 1]!]?.name ?? '?'}`;
  if (op === Op.INVOKE || op === Op.SUPER_INVOKE) return `method ${String(module.constants[code[pc + 1]!])}`;
  // CALL argc: the callee sits below the arguments; the instruction that pushed it is the last one before the call to start at its depth.
  const calleeDepth = depths[pc]! - code[pc + 1]! - 1;
  for (let k = starts.length - 2; k >= 0; k--) {
    const at = starts[k]!;
    const depth = depths[at]!;
    if (depth < 0 || depth > calleeDepth) continue;
    if (depth < calleeDepth) break;
    const pushOp = code[at]!;
    if (pushOp === Op.GET_GLOBAL) return `call ${module.globals[code[at + 1]!] ?? '?'}`;
    if (pushOp === Op.GET_LOCAL) return `call ${localAt(fn, code[at + 1]!, at)?.name ?? '?'}`;
    break;
  }
  return 'call ?';
}

function localAt(fn: FunctionProto, slot: number, pc: number): { readonly name: string } | undefined {
  return fn.locals.find((l) => l.slot === slot && l.startPc <= pc && pc < l.endPc);
}

/** The locals of a function live at a pc, each with its rank among the live locals of its name (by slot). */
function liveLocals(fn: FunctionProto, pc: number): Map<number, string> {
  const live = fn.locals.filter((l) => l.startPc <= pc && pc < l.endPc).sort((a, b) => a.slot - b.slot);
  const seen = new Map<string, number>();
  const bySlot = new Map<number, string>();
  for (const l of live) {
    const k = seen.get(l.name) ?? 0;
    seen.set(l.name, k + 1);
    bySlot.set(l.slot, `${l.name}#${k}`);
  }
  return bySlot;
}

/** What moving the casts of one old VM came to: the new fibers by old fiber, and why the others stay. */
export interface MovedCasts {
  readonly moved: Map<Fiber, Fiber>;
  readonly kept: Map<Fiber, string>;
}

/**
 * Move `fibers` (suspended, on `oldVm`, whose module is `map.before`) into
 * `newVm` (module `map.after`, its script already run): each one that maps
 * comes back as a new suspended fiber of `newVm`; the old ones are left as
 * they are (the caller ends those it moved).
 */
export function moveCasts(oldVm: VM, newVm: VM, map: CodeCorrespondence, fibers: readonly Fiber[]): MovedCasts {
  const moved = new Map<Fiber, Fiber>();
  const kept = new Map<Fiber, string>();
  if (fibers.length === 0) return { moved, kept };
  // Host objects (entities) go across as themselves: both VMs are the same world's.
  const held: HostObject[] = [];
  const codec: HostObjectCodec = {
    encode: (o) => held.push(o) - 1,
    decode: (i) => held[i as number]!,
  };
  let saved: VmSnapshot;
  try {
    saved = saveVm(oldVm, fibers, codec);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    for (const f of fibers) kept.set(f, reason);
    return { moved, kept };
  }
  const objects = mapObjects(saved, map);
  const mapped: { fiber: Fiber; json: FiberJson; index: number }[] = [];
  saved.fibers.forEach((f, index) => {
    const fiber = fibers[index]!;
    const result = mapFiber(f, index, saved.objects, objects, map);
    if (typeof result === 'string') kept.set(fiber, result);
    else mapped.push({ fiber, json: result, index });
  });
  const globals: ValueJson[] = newVm.module.globals.map(() => null);
  const restore = (batch: readonly { fiber: Fiber; json: FiberJson; index: number }[]): Fiber[] => {
    // Open upvalues name their fiber by its place in the snapshot: renumber them for this batch. One into
    // a fiber left out (reachable, if at all, only through the old globals) is closed over its value.
    const place = new Map(batch.map((b, k) => [b.index, k]));
    // Only what the batch's fibers reach is rebuilt (what the old globals alone reached has no place in the new VM).
    const reached = new Set<number>();
    for (const b of batch) walkHeap(objects.list, rootsOf(b.json), reached, () => false);
    const batchObjects = objects.list.map((o, i): ObjectJson => {
      if (!reached.has(i)) return UNREACHED;
      if (o.t !== 'upvalue' || o.fiber === undefined) return o;
      const k = place.get(o.fiber);
      return k !== undefined ? { ...o, fiber: k } : { t: 'upvalue', v: saved.fibers[o.fiber]?.stack[o.slot ?? 0] ?? null };
    });
    const data: VmSnapshot = { format: saved.format, version: saved.version, globals, objects: batchObjects, fibers: batch.map((b) => b.json) };
    // Built here from saveVm's output: the JSON shape is the writer's; the frames are checked against the new code's verifier.
    return restoreVm(newVm, data, codec, { keepGlobals: true, maxSnapshotChars: Infinity, builtHere: true });
  };
  try {
    const restored = restore(mapped);
    mapped.forEach((m, k) => moved.set(m.fiber, restored[k]!));
  } catch (error) {
    if (!(error instanceof VerifyError)) throw error;
    // One that does not fit refuses the batch: find which, one by one.
    for (const m of mapped) {
      try {
        moved.set(m.fiber, restore([m])[0]!);
      } catch (one) {
        if (!(one instanceof VerifyError)) throw one;
        kept.set(m.fiber, `the new code does not fit it (${one.message.replace(/^Snapshot: /, '')})`);
      }
    }
  }
  return { moved, kept };
}

/** The saved heap with every closure pointed at its new function; `unmapped` says why a closure has none. */
interface MappedObjects {
  readonly list: ObjectJson[];
  readonly unmapped: Map<number, string>;
}

/** What stands in for an object no moving fiber reaches, or one with no counterpart (a fiber that reaches it does not move). */
const UNREACHED: ObjectJson = { t: 'list', items: [] };

function mapObjects(saved: VmSnapshot, map: CodeCorrespondence): MappedObjects {
  const unmapped = new Map<number, string>();
  const imported = new Set(map.after.hostImports.map((h) => h.name));
  const list = saved.objects.map((o, i): ObjectJson => {
    if (o.t === 'host' && !imported.has(o.name)) {
      unmapped.set(i, `it holds the host function '${o.name}' as a value, and the new code does not call it`);
      return UNREACHED;
    }
    if (o.t !== 'closure' || o.fn < 0) return o;
    const j = map.functionFor(o.fn);
    if (typeof j === 'string') {
      unmapped.set(i, j);
      return UNREACHED;
    }
    return { ...o, fn: j };
  });
  return { list, unmapped };
}

/** One fiber's frames and stack in the new code's layout, or why they have none. */
function mapFiber(f: FiberJson, fiberIndex: number, oldObjects: readonly ObjectJson[], objects: MappedObjects, map: CodeCorrespondence): FiberJson | string {
  const stack: ValueJson[] = [];
  const frames: FrameJson[] = [];
  /** Old absolute stack slot → new one, for open upvalues. */
  const slotMap = new Map<number, number>();
  for (let k = 0; k < f.frames.length; k++) {
    const frame = f.frames[k]!;
    const top = k + 1 < f.frames.length ? f.frames[k + 1]!.base : f.stack.length;
    const own = f.stack.slice(frame.base, top);
    const closure = oldObjects[frame.closure];
    if (closure?.t !== 'closure') return 'its stack is malformed';
    const base = stack.length;
    if (closure.fn < 0) {
      // The VM's entry trampoline: the same in both.
      own.forEach((v, r) => (slotMap.set(frame.base + r, base + r), stack.push(v)));
      frames.push({ closure: frame.closure, ip: frame.ip, base });
      continue;
    }
    const newIndex = map.functionFor(closure.fn);
    if (typeof newIndex === 'string') return newIndex;
    const layout = mapFrame(map, closure.fn, newIndex, frame.ip, own, k === f.frames.length - 1);
    if (typeof layout === 'string') return layout;
    layout.values.forEach((v) => stack.push(v));
    layout.fromOld.forEach((newSlot, oldSlot) => slotMap.set(frame.base + oldSlot, base + newSlot));
    frames.push({ closure: frame.closure, ip: layout.ip, base });
  }
  // Its frames' functions have new versions (above); any other function value it reaches must too.
  const unmapped = firstUnmappedReached(f, oldObjects, objects.unmapped);
  if (unmapped !== null) return unmapped;
  // Open upvalues (a closure holding a local of a waiting frame) follow their slot, or the cast cannot move.
  const open: { ref: number; slot: number }[] = [];
  for (const ref of f.open) {
    const u = oldObjects[ref];
    const slot = u?.t === 'upvalue' && u.fiber === fiberIndex && u.slot !== undefined ? slotMap.get(u.slot) : undefined;
    if (slot === undefined) return 'a function it made holds one of its locals that the new code drops';
    open.push({ ref, slot });
  }
  open.sort((a, b) => b.slot - a.slot);
  for (const o of open) {
    const u = objects.list[o.ref] as { t: 'upvalue'; fiber?: number; slot?: number };
    objects.list[o.ref] = { ...u, slot: o.slot };
  }
  return { ...f, stack, frames, open: open.map((o) => o.ref) };
}

/**
 * Where a frame of an old function standing at `ip` goes: the new ip, the
 * new frame's size, and for each new slot the old slot it takes its value
 * from (-1: nil). Worked out once per function and wait, however many casts
 * stand there (a reload of 1,000 auras maps one frame 1,000 times).
 */
interface FramePlan {
  readonly ip: number;
  readonly from: Int32Array;
}

function planFrame(map: CodeCorrespondence, oldIndex: number, newIndex: number, ip: number, innermost: boolean): FramePlan | string {
  const oldFn = map.before.functions[oldIndex]!;
  const newFn = map.after.functions[newIndex]!;
  const name = describeFunction(oldFn);
  const oldSites = map.sitesOf(map.before, oldIndex);
  const oldSite = oldSites.byNext.get(ip);
  if (oldSite === undefined) return `it waits at no call of ${name}`;
  const newSites = map.sitesOf(map.after, newIndex);
  const newSite = newSites.byKey.get(oldSite.key)?.[oldSite.ordinal];
  const what = innermost ? oldSite.key.replace(/^host /, '') : oldSite.key.replace(/^(call|method) /, '');
  if (newSite === undefined) return `the new ${name} has no ${ordinalWord(oldSite.ordinal + 1)} call of ${what}`;
  const depth = newSites.depths[newSite.next]!;
  const oldDepth = oldSites.depths[ip]!;
  if (depth < 1 || oldDepth < 1) return `the ${ordinalWord(oldSite.ordinal + 1)} call of ${what} in the new ${name} is never reached`;
  // Without the names of its locals (a .spb written without its debug section) nothing tells which value is which.
  if ((oldFn.locals.length === 0 && oldDepth > 2) || (newFn.locals.length === 0 && depth > 2)) return `the module has no names for the locals of ${name} (no debug section)`;
  const oldLocals = liveLocals(oldFn, oldSite.pc);
  const newLocals = liveLocals(newFn, newSite.pc);
  const oldByName = new Map<string, number>();
  oldLocals.forEach((key, slot) => oldByName.set(key, slot));
  // Slot 0 is the function itself, or `this`.
  const from = new Int32Array(depth - 1).fill(-1);
  from[0] = 0;
  const oldTemps: number[] = [];
  for (let s = 1; s < oldDepth - 1; s++) if (!oldLocals.has(s)) oldTemps.push(s);
  const newTemps: number[] = [];
  for (let s = 1; s < from.length; s++) {
    const key = newLocals.get(s);
    if (key === undefined) newTemps.push(s);
    else from[s] = oldByName.get(key) ?? -1;
  }
  if (oldTemps.length !== newTemps.length) {
    return `it waits part-way through an expression in ${name} (line ${oldFn.lines[oldSite.pc] ?? 0}) whose values the new code cannot take up`;
  }
  newTemps.forEach((s, k) => (from[s] = oldTemps[k]!));
  return { ip: newSite.next, from };
}

/** One frame's values in the new function's layout at the corresponding wait. */
function mapFrame(map: CodeCorrespondence, oldIndex: number, newIndex: number, ip: number, own: readonly ValueJson[], innermost: boolean): { ip: number; values: ValueJson[]; fromOld: Map<number, number> } | string {
  const plan = map.planOf(oldIndex, newIndex, ip, innermost);
  if (typeof plan === 'string') return plan;
  if (own.length !== (map.sitesOf(map.before, oldIndex).depths[ip] ?? 0) - 1) return 'its stack is malformed';
  const values: ValueJson[] = new Array<ValueJson>(plan.from.length);
  const fromOld = new Map<number, number>();
  for (let s = 0; s < plan.from.length; s++) {
    const old = plan.from[s]!;
    values[s] = old < 0 ? null : own[old]!;
    if (old >= 0) fromOld.set(old, s);
  }
  return { ip: plan.ip, values, fromOld };
}

function ordinalWord(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

/** Why the fiber cannot move when it reaches a function value with no new version (null when it reaches none). */
function firstUnmappedReached(f: FiberJson, objects: readonly ObjectJson[], unmapped: ReadonlyMap<number, string>): string | null {
  if (unmapped.size === 0) return null;
  let why: string | null = null;
  walkHeap(objects, rootsOf(f), new Set(), (i) => (why = unmapped.get(i) ?? null) !== null);
  return why === null ? null : `it holds a function value that cannot move: ${why}`;
}

/** The objects a fiber refers to directly: its stack's, its frames' closures, its open upvalues. */
function rootsOf(f: FiberJson): number[] {
  const roots: number[] = [];
  for (const v of f.stack) if (v !== null && typeof v === 'object' && 'r' in v) roots.push(v.r);
  for (const frame of f.frames) roots.push(frame.closure);
  roots.push(...f.open);
  return roots;
}

/** Visit every object reachable from `roots` not yet in `seen` (adding it); stops early when `visit` says so. */
function walkHeap(objects: readonly ObjectJson[], roots: readonly number[], seen: Set<number>, visit: (index: number) => boolean): void {
  const work = [...roots];
  const value = (v: ValueJson | undefined) => {
    if (v !== null && typeof v === 'object' && 'r' in v) work.push(v.r);
  };
  while (work.length > 0) {
    const i = work.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    if (visit(i)) return;
    const o = objects[i];
    if (o === undefined) continue;
    switch (o.t) {
      case 'closure':
        work.push(...o.up);
        break;
      case 'upvalue':
        value(o.v);
        break;
      case 'class':
        if (o.sup !== null) work.push(o.sup);
        for (const [, m] of o.methods) work.push(m);
        break;
      case 'instance':
        work.push(o.cls);
        for (const [, v] of o.fields) value(v);
        break;
      case 'list':
        o.items.forEach(value);
        break;
      case 'map':
        for (const [k, v] of o.entries) (value(k), value(v));
        break;
      case 'bound':
        value(o.recv);
        if (typeof o.method === 'number') work.push(o.method);
        break;
      default:
        break;
    }
  }
}
