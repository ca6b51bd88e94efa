/**
 * A VM snapshot is untrusted input (issue 17, part 4): whatever the data,
 * restoreVm ends in a VerifyError naming the field as a JSON path, or in
 * fibers that run within the restoring VM's budgets — and it checks every
 * size before it allocates anything for it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compile } from '../compiler/index.js';
import { VerifyError } from './errors.js';
import { Fiber } from './fiber.js';
import { restoreVm, saveVm, type VmSnapshot } from './fiber-snapshot.js';
import { RUN_HOSTS } from './test-support/run-hosts.js';
import { VM, type VMOptions } from './vm.js';

const SOURCE = `
var keep = [1, "two", nil];
fun deep(n) { if (n > 0) return deep(n - 1); return pause(n); }
spell loop() { pause(1); while (true) {} }
spell hold() { var xs = [1, 2, 3]; return pause(2) + len(xs); }
spell nested() { return deep(5); }
`;
const MODULE = compile(SOURCE, { hosts: RUN_HOSTS }).module!;

function makeVm(options: VMOptions = {}): VM {
  return new VM(MODULE, { hosts: RUN_HOSTS, print: () => {}, ...options });
}

/** A JSON copy of a snapshot of one suspended cast of `spell`, made under `options`. */
function saved(spell = 'hold', options: VMOptions = {}, budgets: Parameters<VM['cast']>[2] = undefined): VmSnapshot {
  const vm = makeVm(options);
  const fiber = vm.cast(spell, [], budgets);
  expect(fiber.state).toBe('suspended');
  return JSON.parse(JSON.stringify(saveVm(vm, [fiber]))) as VmSnapshot;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function restoreError(data: unknown, vm = makeVm(), options = {}): VerifyError {
  try {
    restoreVm(vm, data as VmSnapshot, null, options);
  } catch (error) {
    expect(error).toBeInstanceOf(VerifyError);
    return error as VerifyError;
  }
  throw new Error('restored');
}

function edited(edit: (d: Json) => void, base: unknown = saved()): Json {
  const d = structuredClone(base) as Json;
  edit(d);
  return d;
}

afterEach(() => vi.restoreAllMocks());

describe('the shape of a VM snapshot (JSON Schema, ajv)', () => {
  it('names the field that is wrong as a JSON path', () => {
    expect(restoreError(edited((d) => (d.fibers[0].budgets.fuel = 'x'))).message).toBe('Snapshot: $.fibers[0].budgets.fuel must be a number or null.');
    expect(restoreError(edited((d) => (d.fibers[0].budgets.maxStack = {}))).message).toBe('Snapshot: $.fibers[0].budgets.maxStack must be a number or null.');
    expect(restoreError(edited((d) => (d.fibers[0].heapUsed = -1))).message).toBe('Snapshot: $.fibers[0].heapUsed must be at least 0.');
    expect(restoreError(edited((d) => (d.fibers[0].frames[1].ip = 1.5))).message).toBe('Snapshot: $.fibers[0].frames[1].ip must be a whole number.');
    expect(restoreError(edited((d) => (d.fibers[0].runKind = 'boss'))).message).toBe('Snapshot: $.fibers[0].runKind must be "cast", "call" or "script".');
    expect(restoreError(edited((d) => (d.fibers[0].extra = 1))).message).toBe('Snapshot: $.fibers[0] has an unknown field "extra".');
    expect(restoreError(edited((d) => delete d.fibers[0].open)).message).toBe("Snapshot: $.fibers[0] is missing its field 'open'.");
    expect(restoreError(edited((d) => (d.globals[0] = { q: 1 }))).message).toMatch(/^Snapshot: \$\.globals\[0\] must be a value: null, a boolean, a finite number, a string/);
    expect(restoreError(edited((d) => (d.objects[0] = { t: 'list', items: 'abc' }))).message).toBe('Snapshot: $.objects[0].items must be an array.');
    expect(restoreError(edited((d) => d.objects.push({ t: 'class', name: 'C', sup: null, methods: [['m']] }))).message).toMatch(/^Snapshot: \$\.objects\[\d+\]\.methods\[0\] has fewer than 2 items\.$/);
  });

  it('refuses a BigInt anywhere with a VerifyError, never the TypeError JSON.stringify would throw', () => {
    const places: ((d: Json) => void)[] = [
      (d) => (d.globals[0] = 10n),
      (d) => (d.fibers[0].budgets.fuel = 10n),
      (d) => (d.fibers[0].fuel = 10n),
      (d) => (d.fibers[0].heapUsed = 10n),
      (d) => (d.fibers[0].frames[0].ip = 10n),
      (d) => (d.fibers[0].stack[2] = 10n),
      (d) => (d.objects[0] = { t: 'host', name: 10n }),
      (d) => (d.objects[0] = { t: 10n }),
      (d) => (d.version = 1n),
    ];
    for (const edit of places) expect(restoreError(edited(edit)).message).toMatch(/^Snapshot: \$/);
  });

  it('refuses cycles with a VerifyError', () => {
    const places: ((d: Json) => void)[] = [
      (d) => d.fibers[0].stack.push(d.fibers),
      (d) => (d.objects[0] = { t: 'list', items: [d.objects] }),
      (d) => (d.objects[0] = { t: 'host', name: d }),
      (d) => (d.fibers[0].budgets = d.fibers[0]),
      (d) => (d.self = d),
    ];
    for (const edit of places) expect(restoreError(edited(edit)).message).toMatch(/^Snapshot: \$/);
  });

  it('says where a snapshot sits in a larger document', () => {
    const error = restoreError(edited((d) => (d.fibers[0].fuel = 'lots')), makeVm(), { path: '$.spellState.vms[2].state' });
    expect(error.message).toBe('Snapshot: $.spellState.vms[2].state.fibers[0].fuel must be a number or null.');
  });

  it('names the field of a semantic problem too', () => {
    expect(restoreError(edited((d) => (d.fibers[0].frames[1].closure = 9999))).message).toMatch(/^Snapshot: \$\.fibers\[0\]\.frames\[1\]\.closure: reference 9999 names no object\.$/);
    expect(restoreError(edited((d) => (d.fibers[0].frames.at(-1).ip += 1))).message).toMatch(/^Snapshot: \$\.fibers\[0\]\.frames\[\d\]\.ip: \d+ is not (an instruction start|just after a call)/);
  });
});

describe('the restoring VM’s budgets govern what a snapshot restores', () => {
  it('caps every saved budget at the VM’s, and a budget the save leaves out is the VM’s', () => {
    const data = edited((d) => {
      for (const key of Object.keys(d.fibers[0].budgets)) d.fibers[0].budgets[key] = null; // unlimited, as JSON writes Infinity
      d.fibers[0].fuel = null;
      delete d.fibers[0].budgets.maxOutput;
    }, saved('loop'));
    const vm = makeVm({ fuel: 5_000, maxHeap: 1_000 });
    const [fiber] = restoreVm(vm, data as VmSnapshot);
    expect(fiber!.budgets.fuel).toBe(5_000);
    expect(fiber!.budgets.maxHeap).toBe(1_000);
    expect(fiber!.budgets.maxStack).toBe(65_536);
    expect(fiber!.budgets.maxOutput).toBe(1_000_000);
    expect(fiber!.fuel).toBe(5_000);
    // `while (true) {}` after the wait stops on the VM's fuel, not never.
    vm.resume(fiber!, 0);
    expect(fiber!.state).toBe('failed');
    expect(fiber!.error!.limit).toBe('fuel');
  });

  it('keeps a saved budget lower than the VM’s', () => {
    const [fiber] = restoreVm(makeVm(), saved('hold', {}, { fuel: 777 }));
    expect(fiber!.budgets.fuel).toBe(777);
  });

  it('refuses a fiber that used more heap than the budget allows', () => {
    const error = restoreError(edited((d) => (d.fibers[0].heapUsed = 1e12)));
    expect(error.message).toBe('Snapshot: $.fibers[0].heapUsed: 1000000000000 heap units, more than the maxHeap budget (16000000).');
  });
});

describe('sizes are checked before anything is allocated', () => {
  /** Every stack a restore would give a fiber. */
  function stackSizes(): number[] {
    const sizes: number[] = [];
    const grow = Fiber.prototype.growStack;
    vi.spyOn(Fiber.prototype, 'growStack').mockImplementation(function (this: Fiber, needed: number) {
      sizes.push(needed);
      grow.call(this, needed);
    });
    return sizes;
  }

  it('a save lifting maxStack, or frames that need more stack than the VM allows, are refused by the VM’s maxStack, no stack allocated', () => {
    const base = saved('nested');
    const sizes = stackSizes();
    // The save lifts its own limits; the stack it declares is past the VM's maxStack.
    const deep = edited((d) => {
      d.fibers[0].budgets.maxStack = null;
      d.fibers[0].budgets.maxFrames = null;
      d.fibers[0].stack = new Array(70_000).fill(null);
    }, base);
    expect(restoreError(deep).message).toBe('Snapshot: $.fibers[0].stack: 70000 values, more than the maxStack budget (65536).');
    const tight = makeVm({ maxStack: 8 });
    expect(restoreError(base, tight).message).toMatch(/^Snapshot: \$\.fibers\[0\]\.(stack: \d+ values|frames: the frames need \d+ stack slots), more than the maxStack budget \(8\)/);
    expect(sizes).toEqual([]);
  });

  it('forged fibers past maxFibers are refused before any is made', () => {
    const one = saved();
    const sizes = stackSizes();
    const many = { ...one, fibers: new Array(1_000).fill(one.fibers[0]) };
    expect(restoreError(many, makeVm({ maxFibers: 100 })).message).toBe('Snapshot: $.fibers: 1000 fibers, more than the maxFibers budget (100) allows with 0 alive.');
    expect(sizes).toEqual([]);
  });

  it('what the fibers would hold together is checked against maxHeldUnits before any stack is made', () => {
    const one = saved();
    const sizes = stackSizes();
    const many = { ...one, fibers: new Array(50).fill(one.fibers[0]) };
    const error = restoreError(many, makeVm(), { maxHeldUnits: 100 });
    expect(error.message).toMatch(/^Snapshot: \$\.fibers: the fibers would hold \d+ heap units \(stacks and allocations\), more than the 100 the budget leaves\.$/);
    expect(sizes).toEqual([]);
  });

  it('an honest snapshot restores and runs on', () => {
    const vm = makeVm();
    const [fiber] = restoreVm(vm, saved());
    vm.resume(fiber!, 10);
    expect(fiber!.result).toBe(13);
  });
});
