/**
 * Save and restore a VM's suspended fibers with its heap: the globals and
 * every object reachable from them and from the fibers (vm/heap-snapshot.ts),
 * each fiber's value stack, its frames (closure, ip, base) and its open
 * upvalues, its budgets and what it has used of them. Plain JSON-safe data:
 *
 *   { format: 'cantrip-vm', version: 1, globals: [value], objects: [object],
 *     fibers: [{ spell, runKind, budgets, fuel, heapUsed, retained, stack: [value],
 *                frames: [{ closure, ip, base }], open: [upvalue ref] }] }
 *
 * A suspended fiber's `fuel` and `heapUsed` are those of the slice it ended;
 * resuming starts a new slice (vm/fiber.ts), so they are kept for the record.
 * `retained` — what it kept alive across its wait, the count its next slice
 * starts from and a world holds against its memory budget — is measured
 * again on restore from the restored heap; the saved count (absent in
 * snapshots made before slices) is a floor, so a restore never counts less
 * than the running world did (shapes no instance uses any more are not rebuilt).
 *
 * A fiber's state is what vm/fiber.ts documents: `stack[0 .. sp)`, frames
 * outermost first (frame 0 the VM's entry trampoline), every frame's `ip`
 * just after the call it is in (the innermost one: after the host call that
 * suspended it, whose result `vm.resume` pushes).
 *
 * Restoring is for untrusted data, like loading bytecode: every reference,
 * type and count is checked, and every frame against the verifier — its ip
 * must be an instruction start just after a call, and the stack depth there
 * (the next frame's base, or sp for the innermost) must be the depth the
 * verifier computed at that ip. Anything else is a VerifyError.
 */

import type { Budgets, RunKind } from './budgets.js';
import { VerifyError } from './errors.js';
import { Fiber } from './fiber.js';
import { HeapReader, HeapWriter, type HeapContext, type HostObjectCodec, type ObjectJson, type ValueJson } from './heap-snapshot.js';
import type { ObjUpvalue } from './objects.js';
import { OPCODES, Op, instructionSize } from './opcodes.js';
import type { Value } from './value.js';
import { jsonSizeProblem } from './json-size.js';
import { stackDepths } from './verifier.js';
import { MAX_TRAMPOLINE_ARGC, checkVmSnapshotShape } from './vm-snapshot-schema.js';
import type { VM, VmSnapshotAccess } from './vm.js';

export const VM_SNAPSHOT_FORMAT = 'cantrip-vm';
export const VM_SNAPSHOT_VERSION = 1;

export interface FrameJson {
  /** The frame's closure (a reference into `objects`). */
  readonly closure: number;
  readonly ip: number;
  readonly base: number;
}

export interface FiberJson {
  readonly spell: string | null;
  readonly runKind: RunKind;
  /** Budgets as JSON holds them: an unlimited one (Infinity) is null. */
  readonly budgets: Readonly<Record<keyof Budgets, number | null>>;
  readonly fuel: number | null;
  readonly heapUsed: number;
  /** Heap units it kept alive across its wait (vm/retained-heap.ts); absent before slices. */
  readonly retained?: number;
  readonly stack: readonly ValueJson[];
  readonly frames: readonly FrameJson[];
  /** Open upvalues, by decreasing stack slot (references into `objects`). */
  readonly open: readonly number[];
}

export interface VmSnapshot {
  readonly format: typeof VM_SNAPSHOT_FORMAT;
  readonly version: typeof VM_SNAPSHOT_VERSION;
  readonly globals: readonly ValueJson[];
  readonly objects: readonly ObjectJson[];
  readonly fibers: readonly FiberJson[];
}

/** The calls a frame can be inside: its ip is just after one of these. */
const CALLS: ReadonlySet<number> = new Set([Op.CALL, Op.INVOKE, Op.SUPER_INVOKE, Op.CALL_HOST]);
/** A suspended fiber's innermost frame stopped in a host call: CALL_HOST, or a call of a host function or host object method value. */
const SUSPENDING_CALLS = CALLS;
/** An outer frame waits for a callee frame: a call of spell code (CALL_HOST never pushes a frame). */
const FRAME_CALLS: ReadonlySet<number> = new Set([Op.CALL, Op.INVOKE, Op.SUPER_INVOKE]);

function bad(message: string): never {
  throw new VerifyError(`Snapshot: ${message}`);
}


function heapContext(vm: VM, hostObjects: HostObjectCodec | null): HeapContext {
  const access = vm.snapshotAccess();
  return {
    functions: access.functions,
    hostImports: access.hostImports,
    undefinedValue: access.undefinedValue,
    trampoline: (argc) => access.trampoline(argc),
    hostObjects,
  };
}

/** Save `fibers` (each suspended, on this VM) with the VM's globals and everything they reach. */
export function saveVm(vm: VM, fibers: readonly Fiber[], hostObjects: HostObjectCodec | null = null): VmSnapshot {
  for (const f of fibers) if (f.state !== 'suspended') throw new VerifyError(`Snapshot: only suspended fibers can be saved (this one is ${f.state}).`);
  const access = vm.snapshotAccess();
  const stacks = new Map<Value[], number>(fibers.map((f, i) => [f.stack, i]));
  const writer = new HeapWriter(heapContext(vm, hostObjects), (cells) => stacks.get(cells) ?? -1);
  const globals = access.globals.map((v) => writer.value(v));
  const saved = fibers.map((f) => saveFiber(f, writer));
  return { format: VM_SNAPSHOT_FORMAT, version: VM_SNAPSHOT_VERSION, globals, objects: writer.objects, fibers: saved };
}

/** Budgets as JSON holds them, worked out once per budgets object (a VM's fibers share its defaults); each fiber's record is its own copy. */
const budgetRecords = new WeakMap<Readonly<Budgets>, readonly (readonly [string, number | null])[]>();

function budgetsJson(budgets: Readonly<Budgets>): FiberJson['budgets'] {
  let entries = budgetRecords.get(budgets);
  if (entries === undefined) {
    entries = Object.entries(budgets).map(([k, v]) => [k, Number.isFinite(v) ? v : null] as const);
    budgetRecords.set(budgets, entries);
  }
  // Stored key by key: a spread of a record made by Object.fromEntries took the slow path (measured: the most of a save of 1,000 fibers).
  const json: Record<string, number | null> = {};
  for (const [k, v] of entries) json[k] = v;
  return json as FiberJson['budgets'];
}

function saveFiber(f: Fiber, writer: HeapWriter): FiberJson {
  const stack: ValueJson[] = [];
  for (let i = 0; i < f.sp; i++) stack.push(writer.value(f.stack[i]!));
  const frames: FrameJson[] = [];
  for (let i = 0; i < f.frameCount; i++) frames.push({ closure: writer.ref(f.frameClosures[i]!), ip: f.frameIps[i]!, base: f.frameBases[i]! });
  const open: number[] = [];
  for (let u = f.openUpvalues; u !== null; u = u.next) open.push(writer.ref(u));
  const budgets = budgetsJson(f.budgets);
  return { spell: f.spell, runKind: f.runKind, budgets, fuel: Number.isFinite(f.fuel) ? f.fuel : null, heapUsed: f.heapUsed, retained: f.retained, stack, frames, open };
}

/** How restoreVm reads a snapshot that is part of a larger document, and what it may hold. */
export interface RestoreVmOptions {
  /** Where the snapshot sits, as a JSON path, for messages: `$` (the default) or, in a world, `$.spellState.vms[0].state`. */
  readonly path?: string;
  /**
   * Heap units the restored fibers may hold together — each one's value
   * stack (the slots it will be given) and the heap it says it allocated —
   * checked before any of them is allocated. Default: no limit beyond each
   * fiber's own budgets. A world passes what its `maxWorldHeap` has left.
   */
  readonly maxHeldUnits?: number;
  /**
   * The most characters of JSON the snapshot may take (counted from below,
   * before anything else reads it: vm/json-size.ts), so that shared
   * sub-objects cannot make a small structured clone stand for a huge tree.
   * Default DEFAULT_MAX_SNAPSHOT_CHARS; Infinity skips the count (a caller
   * that counted the whole document already).
   */
  readonly maxSnapshotChars?: number;
  /**
   * Leave the VM's globals as they are and add the saved fibers beside its
   * own live ones (an entity handed over from another world brings its
   * casts; the world it arrives in keeps its globals). What the saved
   * globals reach is rebuilt as copies only the fibers see. Default false.
   */
  readonly keepGlobals?: boolean;
  /**
   * The data was built in this process from `saveVm` output (a live reload
   * moving casts to new code: runtime/world/cast-reload.ts), so its JSON shape
   * is the writer's: the schema pass is skipped. Every reference, count and
   * size, and every frame against the verifier, is checked as always.
   * Default false: never set it for data that came from outside.
   */
  readonly builtHere?: boolean;
}

/** The most characters of JSON a snapshot may take unless the embedder says otherwise (a world's `maxSnapshotChars`). */
export const DEFAULT_MAX_SNAPSHOT_CHARS = 200_000_000;

/** Slack above maxStack a restored stack may need: the entry trampoline's own slots (argc + 2, argc ≤ 255). */
const TRAMPOLINE_SLACK = 2 * MAX_TRAMPOLINE_ARGC + 2;

/**
 * Put a snapshot back into a VM of the same module (fresh, or one that
 * never ran the fibers): its globals are replaced, and the saved fibers come
 * back suspended and live, in order — `vm.resume` continues each where it
 * stopped. The data is untrusted (docs/security.md, "Saves"): its shape is
 * checked against a JSON Schema, then every reference, count and size, and
 * every frame against the verifier; the restoring VM's budgets cap the saved
 * ones, and no stack is allocated before its size is checked against them.
 * VerifyError, naming the field as a JSON path, for anything that does not
 * hang together.
 */
export function restoreVm(vm: VM, data: VmSnapshot, hostObjects: HostObjectCodec | null = null, options: RestoreVmOptions = {}): Fiber[] {
  try {
    const root = options.path ?? '$';
    const maxChars = options.maxSnapshotChars ?? DEFAULT_MAX_SNAPSHOT_CHARS;
    const tooBig = maxChars === Infinity ? null : jsonSizeProblem(data, maxChars, root);
    if (tooBig !== null) bad(tooBig);
    return restoreChecked(vm, data, hostObjects, root, options.maxHeldUnits ?? Infinity, options.keepGlobals === true, options.builtHere === true);
  } catch (error) {
    // The schema rules out what JS would choke on; this is the last line, so that nothing but a
    // VerifyError (or the codec's own error) ever leaves a restore.
    if (error instanceof TypeError || error instanceof RangeError) bad(`the data is malformed (${error.message}).`);
    throw error;
  }
}

function restoreChecked(vm: VM, data: VmSnapshot, hostObjects: HostObjectCodec | null, root: string, maxHeldUnits: number, keepGlobals: boolean, builtHere: boolean): Fiber[] {
  const raw = data as unknown as Record<string, unknown> | null;
  if (raw === null || typeof raw !== 'object' || raw['format'] !== VM_SNAPSHOT_FORMAT || raw['version'] !== VM_SNAPSHOT_VERSION) {
    bad(`${root} is not a Cantrip VM snapshot of this version.`);
  }
  if (!builtHere) checkVmSnapshotShape(data, root);
  const access = vm.snapshotAccess();
  if (data.globals.length !== access.globals.length) {
    bad(`${root}.globals: the globals do not match the module (${data.globals.length} saved, the module has ${access.globals.length}).`);
  }
  // Sizes first, against the restoring VM's budgets: nothing is allocated for a fiber the budgets refuse.
  if (access.liveFibers() + data.fibers.length > access.defaults.maxFibers) {
    bad(`${root}.fibers: ${data.fibers.length} fibers, more than the maxFibers budget (${access.defaults.maxFibers}) allows with ${access.liveFibers()} alive.`);
  }
  const plans = data.fibers.map((f, i) => planFiber(access, f, `${root}.fibers[${i}]`, data.objects));
  const held = plans.reduce((sum, p) => sum + p.stackSlots + p.heapUsed, 0);
  if (held > maxHeldUnits) bad(`${root}.fibers: the fibers would hold ${held} heap units (stacks and allocations), more than the ${maxHeldUnits} the budget leaves.`);
  // Fibers next (empty stacks of their final size), so open upvalues can point into them.
  const fibers = plans.map((p) => newFiber(p));
  const reader = new HeapReader(heapContext(vm, hostObjects), data.objects as readonly unknown[], (i) =>
    Number.isInteger(i) && i >= 0 && i < fibers.length ? fibers[i]!.stack : null,
  `${root}.objects`);
  reader.fillValues();
  const globals = data.globals.map((g, slot) => reader.value(g, `${root}.globals[${slot}]`));
  const frames = new FrameChecker(vm);
  fibers.forEach((fiber, i) => fillFiber(frames, fiber, data.fibers[i]!, reader, `${root}.fibers[${i}]`));
  if (!keepGlobals) {
    globals.forEach((g, slot) => (access.globals[slot] = g));
    access.globalsRestored();
  }
  for (const fiber of fibers) {
    fiber.state = 'suspended';
    access.adopt(fiber);
  }
  return fibers;
}

/** What a fiber will be given, worked out from the data and the budgets before anything is allocated. */
interface FiberPlan {
  readonly budgets: Budgets;
  readonly data: FiberJson;
  readonly path: string;
  /** The value stack's final size: the saved values, the result `resume` pushes, and what each frame's function may still push. */
  readonly stackSlots: number;
  readonly heapUsed: number;
}

/**
 * A fiber's budgets are the saved ones capped by the restoring VM's (a save
 * may carry at most what the embedder allows; a budget it leaves out is the
 * VM's), then its sizes are checked against them.
 */
function planFiber(access: VmSnapshotAccess, f: FiberJson, path: string, objects: readonly ObjectJson[]): FiberPlan {
  const budgets: Budgets = { ...access.defaults };
  for (const key of Object.keys(budgets) as (keyof Budgets)[]) {
    const saved = f.budgets[key];
    if (saved !== undefined) budgets[key] = Math.min(saved ?? Infinity, access.defaults[key]);
  }
  if (f.stack.length > budgets.maxStack + 2) bad(`${path}.stack: ${f.stack.length} values, more than the maxStack budget (${budgets.maxStack}).`);
  if (f.frames.length > budgets.maxFrames + 1) bad(`${path}.frames: ${f.frames.length} frames, more than the maxFrames budget (${budgets.maxFrames}) allows.`);
  if (f.heapUsed > budgets.maxHeap) bad(`${path}.heapUsed: ${f.heapUsed} heap units, more than the maxHeap budget (${budgets.maxHeap}).`);
  let stackSlots = f.stack.length + 1;
  f.frames.forEach((frame) => {
    const record = objects[frame.closure];
    const fn = record?.t === 'closure' && record.fn >= 1 ? access.functions[record.fn] : undefined;
    const reach = fn !== undefined ? fn.maxStack : record?.t === 'closure' && record.argc !== undefined ? record.argc + 2 : 0;
    if (frame.base <= f.stack.length) stackSlots = Math.max(stackSlots, frame.base + reach + 1);
  });
  if (stackSlots > budgets.maxStack + TRAMPOLINE_SLACK) bad(`${path}.frames: the frames need ${stackSlots} stack slots, more than the maxStack budget (${budgets.maxStack}).`);
  return { budgets, data: f, path, stackSlots, heapUsed: f.heapUsed };
}

function newFiber(plan: FiberPlan): Fiber {
  const f = plan.data;
  const fiber = new Fiber(plan.budgets, f.spell, f.runKind);
  fiber.state = 'suspended';
  fiber.live = false;
  fiber.growStack(plan.stackSlots);
  fiber.growFrames(f.frames.length);
  return fiber;
}

function fillFiber(frames: FrameChecker, fiber: Fiber, f: FiberJson, reader: HeapReader, path: string): void {
  const stack = fiber.stack;
  f.stack.forEach((v, slot) => (stack[slot] = reader.value(v, `${path}.stack[${slot}]`)));
  fiber.sp = f.stack.length;
  // Fuel left, capped by the (capped) fuel budget.
  fiber.fuel = Math.min(f.fuel ?? Infinity, fiber.budgets.fuel);
  fiber.heapUsed = f.heapUsed;
  fiber.retained = f.retained ?? 0;
  f.frames.forEach((frame, k) => {
    const at = `${path}.frames[${k}]`;
    fiber.frameClosures[k] = reader.closureAt(frame.closure, `${at}.closure`);
    fiber.frameIps[k] = frame.ip;
    fiber.frameBases[k] = frame.base <= fiber.sp ? frame.base : bad(`${at}.base: ${frame.base} is above the stack's ${fiber.sp} values.`);
  });
  fiber.frameCount = f.frames.length;
  frames.check(fiber, path);
  fiber.openUpvalues = linkOpenUpvalues(f.open, reader, fiber, `${path}.open`);
}

/**
 * Where a frame may stand in a function: for each ip, the start of the
 * instruction that ends there (-1 if none) and the verifier's stack depth —
 * worked out once per function per restore, so that checking a frame is
 * O(1) however many fibers and frames a save holds.
 */
interface CallSites {
  readonly previous: Int32Array;
  readonly depths: Int32Array;
}

/**
 * Call sites and stack depths by function, per VM: a module's code never
 * changes, so a server importing entity after entity into one world works
 * them out once (vm/verifier.ts's stackDepths walks the whole function).
 */
const sitesByVm = new WeakMap<VM, Map<number, CallSites>>();

class FrameChecker {
  private readonly sites: Map<number, CallSites>;

  constructor(private readonly vm: VM) {
    let sites = sitesByVm.get(vm);
    if (sites === undefined) sitesByVm.set(vm, (sites = new Map()));
    this.sites = sites;
  }

  /** Each frame against the verifier: an ip just after a call, and the depth there equal to the stack the frame holds. */
  check(fiber: Fiber, path: string): void {
    const n = fiber.frameCount;
    const entry = fiber.frameClosures[0]!;
    if (entry.fn.index >= 0 || fiber.frameBases[0] !== 0) bad(`${path}.frames[0] is not the VM's entry.`);
    if (fiber.stack[0] !== entry) bad(`${path}.stack[0] is not the fiber's entry.`);
    for (let k = 0; k < n; k++) {
      const at = `${path}.frames[${k}]`;
      const fn = fiber.frameClosures[k]!.fn;
      const ip = fiber.frameIps[k]!;
      const base = fiber.frameBases[k]!;
      const innermost = k === n - 1;
      const top = innermost ? fiber.sp : fiber.frameBases[k + 1]!;
      if (k > 0 && fn.index < 0) bad(`${at} is an entry trampoline.`);
      if (k > 0 && base <= fiber.frameBases[k - 1]!) bad(`${at}.base does not sit above its caller's.`);
      const sites = this.sitesOf(fn.index, fn.original);
      const prev = ip < sites.previous.length ? sites.previous[ip]! : -1;
      if (prev < 0) bad(`${at}.ip: ${ip} is not an instruction start of ${fn.name || 'its function'}.`);
      const calls = innermost ? SUSPENDING_CALLS : FRAME_CALLS;
      if (!calls.has(fn.original[prev]!)) bad(`${at}.ip: ${ip} is not just after a call.`);
      const depth = fn.index < 0 ? 2 : sites.depths[ip]!;
      if (depth < 0) bad(`${at}.ip: ${ip} is not reachable.`);
      if (top - base !== depth - 1) bad(`${at}: the stack holds ${top - base} values at ip ${ip}, but the verifier says ${depth - 1}.`);
    }
  }

  private sitesOf(index: number, code: Int32Array): CallSites {
    const known = this.sites.get(index);
    if (known !== undefined) return known;
    const previous = new Int32Array(code.length).fill(-1);
    for (let pc = 0; pc < code.length; ) {
      const op = code[pc]!;
      if (OPCODES[op] === undefined) break;
      const next = pc + instructionSize(op);
      if (next < code.length) previous[next] = pc;
      pc = next;
    }
    const sites = { previous, depths: index < 0 ? new Int32Array(0) : stackDepths(this.vm.module, index) };
    this.sites.set(index, sites);
    return sites;
  }
}

/** The open upvalues: each points into this fiber's stack below sp, by strictly decreasing slot, and appears once. */
function linkOpenUpvalues(refs: readonly number[], reader: HeapReader, fiber: Fiber, path: string): ObjUpvalue | null {
  let head: ObjUpvalue | null = null;
  let tail: ObjUpvalue | null = null;
  let lastSlot = Infinity;
  refs.forEach((ref, k) => {
    const u = reader.upvalueAt(ref, `${path}[${k}]`);
    if (u.cells !== fiber.stack || u.index >= fiber.sp || u.index >= lastSlot) {
      bad(`${path}[${k}]: the open upvalues must point into this fiber's stack, below its top, by decreasing slot.`);
    }
    lastSlot = u.index;
    u.next = null;
    if (tail === null) head = u;
    else tail.next = u;
    tail = u;
  });
  return head;
}
