import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { VerifyError } from './errors.js';
import type { Fiber } from './fiber.js';
import { restoreVm, saveVm, type VmSnapshot } from './fiber-snapshot.js';
import type { HostFunction } from './host.js';
import { VM } from './vm.js';

const PAUSE: HostFunction = {
  name: 'pause',
  params: [],
  returns: 'any',
  doc: 'Suspend until resumed.',
  impl: (ctx) => {
    ctx.suspend();
    return null;
  },
};
const HOSTS = [...CORE_HOST_FUNCTIONS, PAUSE];

const PROGRAM = `
class Counter {
  init(start) { this.n = start; this.log = []; }
  bump(by) { this.n += by; this.log.append(this.n); return this.n; }
}
class Loud < Counter {
  bump(by) { print "bump " + str(by); return super.bump(by * 2); }
}
var shared = [1, 2];
var tally = 0;
fun makeAdder(k) {
  var total = 0;
  fun add(x) { total += x + k; tally += 1; return total; }
  return add;
}
fun deep(c, add, depth) {
  if (depth == 0) {
    var before = add(1);
    var got = pause();
    print "resumed with " + str(got) + ", before " + str(before);
    return add(2) + c.bump(3);
  }
  var local = [depth, shared];
  var r = deep(c, add, depth - 1);
  print "depth " + str(depth) + " sees " + str(local);
  return r;
}
spell run(start) {
  var c = Loud(start);
  var add = makeAdder(10);
  var cyc = [c];
  cyc.append(cyc);
  shared.append(c);
  var result = deep(c, add, 3);
  print "result " + str(result) + " tally " + str(tally) + " log " + str(c.log) + " " + str(len(cyc));
  print -0 == 0;
  print 1/0;
  return result;
}
`;

function makeVm(printed: string[]): VM {
  const { module, diagnostics } = compile(PROGRAM, { hosts: HOSTS });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return new VM(module!, { hosts: HOSTS, print: (t) => printed.push(t) });
}

function suspended(): { vm: VM; fiber: Fiber; printed: string[] } {
  const printed: string[] = [];
  const vm = makeVm(printed);
  vm.runScript();
  const fiber = vm.cast('run', [5]);
  expect(fiber.state).toBe('suspended');
  return { vm, fiber, printed };
}

describe('saving and restoring a suspended fiber with the VM heap', () => {
  it('a fiber deep in nested calls, holding closures, instances, lists and cycles, continues exactly', () => {
    const straight = suspended();
    straight.vm.resume(straight.fiber, 42);
    expect(straight.fiber.state).toBe('done');

    const { vm, fiber, printed } = suspended();
    const data = JSON.parse(JSON.stringify(saveVm(vm, [fiber]))) as VmSnapshot;
    const restoredPrinted: string[] = [...printed];
    const fresh = makeVm(restoredPrinted);
    const [copy] = restoreVm(fresh, data);
    expect(copy!.state).toBe('suspended');
    expect(fresh.liveFiberCount).toBe(1);
    fresh.resume(copy!, 42);
    expect(copy!.state).toBe('done');
    expect(copy!.result).toBe(straight.fiber.result);
    expect(restoredPrinted).toEqual(straight.printed);
    expect(fresh.liveFiberCount).toBe(0);
    // Globals came along: the closure's count and the shared list.
    expect(fresh.getGlobal('tally')).toBe(straight.vm.getGlobal('tally'));
  });

  it('shared objects stay shared and cycles survive', () => {
    const { vm, fiber } = suspended();
    const data = saveVm(vm, [fiber]);
    const lists = data.objects.filter((o) => o.t === 'list');
    // cyc holds itself: one list object whose items reference its own index.
    const selfRef = data.objects.findIndex((o) => o.t === 'list' && o.items.some((v) => typeof v === 'object' && v !== null && 'r' in v && data.objects[v.r] === o));
    expect(selfRef).toBeGreaterThanOrEqual(0);
    expect(lists.length).toBeGreaterThanOrEqual(3);
    const fresh = makeVm([]);
    restoreVm(fresh, JSON.parse(JSON.stringify(data)) as VmSnapshot);
    const shared = fresh.getGlobal("shared") as unknown as { items: unknown[] };
    expect(shared.items.length).toBe(3);
  });

  it('refuses tampered data with a VerifyError, never a raw exception', () => {
    const { vm, fiber } = suspended();
    const good = JSON.stringify(saveVm(vm, [fiber]));
    const tamper = (edit: (d: { fibers: { frames: { ip: number; base: number; closure: number }[]; stack: unknown[] }[]; objects: unknown[]; globals: unknown[] }) => void): unknown => {
      const d = JSON.parse(good);
      edit(d);
      try {
        restoreVm(makeVm([]), d as VmSnapshot);
        return 'restored';
      } catch (error) {
        return error;
      }
    };
    const last = (d: { fibers: { frames: { ip: number }[] }[] }) => d.fibers[0]!.frames[d.fibers[0]!.frames.length - 1]!;
    expect(tamper((d) => (last(d).ip += 1))).toBeInstanceOf(VerifyError);
    expect(String(tamper((d) => (last(d).ip += 1)))).toMatch(/not (an instruction start|just after a call)/);
    expect(String(tamper((d) => d.fibers[0]!.stack.push(null)))).toMatch(/the verifier says/);
    expect(String(tamper((d) => (d.fibers[0]!.frames[1]!.closure = 9999)))).toMatch(/names no object/);
    expect(String(tamper((d) => d.globals.pop()))).toMatch(/globals do not match/);
    expect(String(tamper((d) => (d.objects[0] = { t: 'closure', fn: 1e9, up: [] })))).toMatch(/names no function|not a closure|malformed/);
    expect(String(tamper((d) => (d.objects[0] = { t: 'weird' })))).toMatch(/\$\.objects\[0\]\.t must be "closure", "upvalue"/);
    expect(tamper((d) => (d.objects = [] as unknown[]))).toBeInstanceOf(VerifyError);
    expect(tamper((d) => ((d as unknown as { format: string }).format = 'x'))).toBeInstanceOf(VerifyError);
  });

  it('only suspended fibers can be saved', () => {
    const printed: string[] = [];
    const vm = makeVm(printed);
    const done = vm.runScript();
    expect(() => saveVm(vm, [done])).toThrow(VerifyError);
  });
});
