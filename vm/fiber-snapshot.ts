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

import { resolveBudgets, type Budgets, type RunKind } from './budgets.js';
import { VerifyError } from './errors.js';
import { Fiber } from './fiber.js';
import { HeapReader, HeapWriter, type HeapContext, type HostObjectCodec, type ObjectJson, type ValueJson } from './heap-snapshot.js';
import type { ObjUpvalue } from './objects.js';
import { OPCODES, Op, instructionSize } from './opcodes.js';
import type { Value } from './value.js';
import { stackDepths } from './verifier.js';
import type { VM } from './vm.js';

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

function saveFiber(f: Fiber, writer: HeapWriter): FiberJson {
  const stack: ValueJson[] = [];
  for (let i = 0; i < f.sp; i++) stack.push(writer.value(f.stack[i]!));
  const frames: FrameJson[] = [];
  for (let i = 0; i < f.frameCount; i++) frames.push({ closure: writer.ref(f.frameClosures[i]!), ip: f.frameIps[i]!, base: f.frameBases[i]! });
  const open: number[] = [];
  for (let u = f.openUpvalues; u !== null; u = u.next) open.push(writer.ref(u));
  const budgets = Object.fromEntries(Object.entries(f.budgets).map(([k, v]) => [k, Number.isFinite(v) ? v : null])) as FiberJson['budgets'];
  return { spell: f.spell, runKind: f.runKind, budgets, fuel: Number.isFinite(f.fuel) ? f.fuel : null, heapUsed: f.heapUsed, retained: f.retained, stack, frames, open };
}

/**
 * Put a snapshot back into a VM of the same module (fresh, or one that
 * never ran the fibers): its globals are replaced, and the saved fibers come
 * back suspended and live, in order — `vm.resume` continues each where it
 * stopped. VerifyError for anything that does not hang together.
 */
export function restoreVm(vm: VM, data: VmSnapshot, hostObjects: HostObjectCodec | null = null): Fiber[] {
  if (data === null || typeof data !== 'object' || data.format !== VM_SNAPSHOT_FORMAT || data.version !== VM_SNAPSHOT_VERSION) {
    bad('not a Cantrip VM snapshot of this version.');
  }
  const access = vm.snapshotAccess();
  if (!Array.isArray(data.globals) || data.globals.length !== access.globals.length) bad('the globals do not match the module.');
  if (!Array.isArray(data.fibers)) bad('the fiber list is malformed.');
  // Fibers first (empty stacks of the right size), so open upvalues can point into them.
  if (!Array.isArray(data.objects)) bad('the object table is malformed.');
  const fibers = data.fibers.map((f, i) => newFiber(vm, f, i, data.objects));
  const reader = new HeapReader(heapContext(vm, hostObjects), data.objects as readonly unknown[], (i) =>
    Number.isInteger(i) && i >= 0 && i < fibers.length ? fibers[i]!.stack : null,
  );
  reader.fillValues();
  const globals = data.globals.map((g) => reader.value(g));
  fibers.forEach((fiber, i) => fillFiber(vm, fiber, data.fibers[i]!, reader, i));
  if (access.liveFibers() + fibers.length > Math.min(...fibers.map((f) => f.budgets.maxFibers), Infinity)) bad('more fibers than the maxFibers budget allows.');
  globals.forEach((g, slot) => (access.globals[slot] = g));
  for (const fiber of fibers) {
    fiber.state = 'suspended';
    access.adopt(fiber);
  }
  return fibers;
}

function isCount(n: unknown, max: number): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max;
}

function newFiber(vm: VM, f: FiberJson, i: number, objects: readonly ObjectJson[]): Fiber {
  if (f === null || typeof f !== 'object') bad(`fiber ${i} is malformed.`);
  const runKind = f.runKind;
  if (runKind !== 'cast' && runKind !== 'call' && runKind !== 'script') bad(`fiber ${i} has a bad run kind.`);
  if (f.spell !== null && typeof f.spell !== 'string') bad(`fiber ${i} has a bad spell name.`);
  if (f.budgets === null || typeof f.budgets !== 'object') bad(`fiber ${i} has no budgets.`);
  const overrides: Partial<Budgets> = {};
  for (const [k, v] of Object.entries(f.budgets)) {
    if (v !== null && !(typeof v === 'number' && v >= 0)) bad(`fiber ${i} has a bad ${k} budget.`);
    (overrides as Record<string, number>)[k] = v === null ? Infinity : v;
  }
  const access = vm.snapshotAccess();
  const budgets = resolveBudgets(access.defaults, overrides);
  if (!Array.isArray(f.stack) || f.stack.length > budgets.maxStack + 2) bad(`fiber ${i} has a bad stack.`);
  if (!Array.isArray(f.frames) || f.frames.length < 2 || f.frames.length > budgets.maxFrames + 1) bad(`fiber ${i} has a bad frame count.`);
  const fiber = new Fiber(budgets, f.spell, runKind);
  fiber.state = 'suspended';
  fiber.live = false;
  // The stack's final size now, before open upvalues point into it: the saved values, the result
  // `resume` pushes, and whatever each frame's function may still push above its base.
  let needed = f.stack.length + 1;
  for (const frame of f.frames) {
    const record = objects[frame?.closure as number] as { t?: unknown; fn?: unknown; argc?: unknown } | undefined;
    const fn = record?.t === 'closure' && typeof record.fn === 'number' ? access.functions[record.fn] : undefined;
    const reach = fn !== undefined ? fn.maxStack : typeof record?.argc === 'number' ? record.argc + 2 : 0;
    if (isCount(frame?.base, f.stack.length)) needed = Math.max(needed, frame.base + reach + 1);
  }
  if (needed > budgets.maxStack + 512) bad(`fiber ${i} needs more stack than its budget.`);
  fiber.growStack(needed);
  return fiber;
}

function fillFiber(vm: VM, fiber: Fiber, f: FiberJson, reader: HeapReader, i: number): void {
  const stack = fiber.stack;
  f.stack.forEach((v, slot) => (stack[slot] = reader.value(v)));
  fiber.sp = f.stack.length;
  if (f.fuel !== null && !(typeof f.fuel === 'number' && f.fuel >= 0)) bad(`fiber ${i} has bad fuel.`);
  fiber.fuel = f.fuel === null ? Infinity : f.fuel;
  if (!(typeof f.heapUsed === 'number' && f.heapUsed >= 0)) bad(`fiber ${i} has a bad heap count.`);
  fiber.heapUsed = f.heapUsed;
  if (f.retained !== undefined && !isCount(f.retained, Number.MAX_SAFE_INTEGER)) bad(`fiber ${i} has a bad retained heap count.`);
  fiber.retained = f.retained ?? 0;
  fiber.growFrames(f.frames.length);
  f.frames.forEach((frame, k) => {
    if (frame === null || typeof frame !== 'object') bad(`fiber ${i} frame ${k} is malformed.`);
    const closure = reader.closureAt(frame.closure);
    fiber.frameClosures[k] = closure;
    fiber.frameIps[k] = isCount(frame.ip, 1 << 30) ? frame.ip : bad(`fiber ${i} frame ${k} has a bad ip.`);
    fiber.frameBases[k] = isCount(frame.base, fiber.sp) ? frame.base : bad(`fiber ${i} frame ${k} has a bad base.`);
  });
  fiber.frameCount = f.frames.length;
  checkFrames(vm, fiber, i);
  fiber.openUpvalues = linkOpenUpvalues(f.open, reader, fiber, i);
}

/** Each frame against the verifier: an ip just after a call, and the depth there equal to the stack the frame holds. */
function checkFrames(vm: VM, fiber: Fiber, i: number): void {
  const n = fiber.frameCount;
  const entry = fiber.frameClosures[0]!;
  if (entry.fn.index >= 0 || fiber.frameBases[0] !== 0) bad(`fiber ${i} does not start at the VM's entry.`);
  if (fiber.stack[0] !== entry) bad(`fiber ${i}'s stack does not start with its entry.`);
  for (let k = 0; k < n; k++) {
    const closure = fiber.frameClosures[k]!;
    const fn = closure.fn;
    const ip = fiber.frameIps[k]!;
    const base = fiber.frameBases[k]!;
    const innermost = k === n - 1;
    const top = innermost ? fiber.sp : fiber.frameBases[k + 1]!;
    if (k > 0 && fn.index < 0) bad(`fiber ${i} frame ${k} is an entry trampoline.`);
    if (k > 0 && base <= fiber.frameBases[k - 1]!) bad(`fiber ${i} frame ${k} does not sit above its caller.`);
    const code = fn.original;
    const prev = previousInstruction(code, ip);
    if (prev < 0) bad(`fiber ${i} frame ${k}: ip ${ip} is not an instruction start of ${fn.name || 'its function'}.`);
    const calls = innermost ? SUSPENDING_CALLS : FRAME_CALLS;
    if (!calls.has(code[prev]!)) bad(`fiber ${i} frame ${k}: ip ${ip} is not just after a call.`);
    const depth = fn.index < 0 ? 2 : stackDepths(vm.module, fn.index)[ip]!;
    if (depth < 0) bad(`fiber ${i} frame ${k}: ip ${ip} is not reachable.`);
    if (top - base !== depth - 1) {
      bad(`fiber ${i} frame ${k}: the stack holds ${top - base} values at ip ${ip}, but the verifier says ${depth - 1}.`);
    }
  }
}

/** The start of the instruction that ends exactly at `ip`, or -1 when `ip` is not an instruction start. */
function previousInstruction(code: Int32Array, ip: number): number {
  let pc = 0;
  let prev = -1;
  while (pc < ip && pc < code.length) {
    const op = code[pc]!;
    if (OPCODES[op] === undefined) return -1;
    prev = pc;
    pc += instructionSize(op);
  }
  return pc === ip && ip < code.length ? prev : -1;
}

/** The open upvalues: each points into this fiber's stack below sp, by strictly decreasing slot, and appears once. */
function linkOpenUpvalues(refs: unknown, reader: HeapReader, fiber: Fiber, i: number): ObjUpvalue | null {
  if (!Array.isArray(refs)) bad(`fiber ${i} has no open upvalue list.`);
  let head: ObjUpvalue | null = null;
  let tail: ObjUpvalue | null = null;
  let lastSlot = Infinity;
  for (const ref of refs) {
    const u = reader.upvalueAt(ref);
    if (u.cells !== fiber.stack || u.index >= fiber.sp || u.index >= lastSlot) bad(`fiber ${i} has a bad open upvalue list.`);
    lastSlot = u.index;
    u.next = null;
    if (tail === null) head = u;
    else tail.next = u;
    tail = u;
  }
  return head;
}
