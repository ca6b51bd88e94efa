import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { Debugger, lineStarts, returnPoints } from './debugger.js';
import type { Fiber } from './fiber.js';
import type { HostFunction } from './host.js';
import type { ObjList } from './objects.js';
import { Op } from './opcodes.js';
import { VM } from './vm.js';

const wait: HostFunction = {
  name: 'wait',
  params: [{ name: 's', type: 'number' }],
  returns: 'nil',
  doc: 'Suspend.',
  impl: (ctx) => {
    ctx.suspend();
    return null;
  },
};
const HOSTS = [...CORE_HOST_FUNCTIONS, wait];

const SOURCE = `fun add(a, b) {
  var sum = a + b;
  return sum;
}
spell go(x) {
  var y = x * 2;
  var z = add(y, 1);
  print z;
  wait(1);
  print "after";
  return z;
}
`;

function setUp(source = SOURCE, runScript = true) {
  const { module, diagnostics } = compile(source, { hosts: HOSTS });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const out: string[] = [];
  const vm = new VM(module, { hosts: HOSTS, print: (t) => out.push(t) });
  if (runScript) expect(vm.runScript().state).toBe('done');
  const dbg = new Debugger(vm);
  dbg.attach();
  return { vm, dbg, out };
}

const where = (dbg: Debugger, fiber: Fiber) => {
  const top = dbg.callStack(fiber)[0]!;
  return `${top.functionName}:${top.line}`;
};

describe('Debugger', () => {
  it('stops at a breakpoint with the call stack and locals', () => {
    const { vm, dbg } = setUp();
    dbg.setBreakpoints([3]);
    const fiber = vm.cast('go', [5]);
    expect(fiber.state).toBe('paused');
    const stack = dbg.callStack(fiber);
    expect(stack.map((f) => [f.functionName, f.line])).toEqual([
      ['add', 3],
      ['go', 7],
    ]);
    expect(stack[0]!.locals).toEqual([
      { name: 'a', value: '10' },
      { name: 'b', value: '1' },
      { name: 'sum', value: '11' },
    ]);
    expect(stack[1]!.locals.map((l) => l.name)).toEqual(['x', 'y']);
    expect(dbg.continue(fiber).state).toBe('suspended');
    expect(vm.resume(fiber).state).toBe('done');
    expect(fiber.result).toBe(11);
  });

  it('steps into, over and out, line by line, across a wait', () => {
    const { vm, dbg, out } = setUp();
    dbg.startMode = 'into';
    const fiber = vm.cast('go', [5]);
    expect(where(dbg, fiber)).toBe('go:6');
    dbg.stepOver(fiber);
    expect(where(dbg, fiber)).toBe('go:7');
    dbg.stepInto(fiber);
    expect(where(dbg, fiber)).toBe('add:2');
    dbg.stepOut(fiber);
    // Back in the caller, on the call's line (the call done, z about to be stored), then the next line.
    expect(where(dbg, fiber)).toBe('go:7');
    dbg.stepOver(fiber);
    expect(where(dbg, fiber)).toBe('go:8');
    expect(out).toEqual([]);
    dbg.stepOver(fiber);
    expect(out).toEqual(['11']);
    expect(where(dbg, fiber)).toBe('go:9');
    expect(dbg.stepOver(fiber).state).toBe('suspended');
    vm.resume(fiber);
    expect(fiber.state).toBe('paused');
    expect(where(dbg, fiber)).toBe('go:10');
    dbg.continue(fiber);
    expect(fiber.state).toBe('done');
    expect(out).toEqual(['11', 'after']);
  });

  it('step over from a return lands back on the call line, then on the next line', () => {
    const { vm, dbg, out } = setUp();
    dbg.setBreakpoints([3]);
    const fiber = vm.cast('go', [5]);
    expect(where(dbg, fiber)).toBe('add:3');
    dbg.stepOver(fiber);
    expect(where(dbg, fiber)).toBe('go:7');
    // The call is done: its result is z's value; the instruction shown is the call's, on line 7.
    const top = dbg.callStack(fiber)[0]!;
    expect(top.locals.find((l) => l.name === 'z')?.value).toBe('11');
    const go = vm.runtimeFunctions.find((f) => f.name === 'go')!;
    expect(go.lines[top.pc]).toBe(7);
    dbg.stepOver(fiber);
    expect(where(dbg, fiber)).toBe('go:8');
    expect(out).toEqual([]);
    // Step into from the return of a call whose line goes on (print): back on the call line, print still to run.
    const second = setUp('fun two() {\n  return 2;\n}\nspell s() {\n  print two();\n  print "next";\n}\n');
    second.dbg.setBreakpoints([2]);
    const f2 = second.vm.cast('s', []);
    expect(where(second.dbg, f2)).toBe('two:2');
    second.dbg.stepInto(f2);
    expect(where(second.dbg, f2)).toBe('s:5');
    expect(second.out).toEqual([]);
    second.dbg.stepOver(f2);
    expect(second.out).toEqual(['2']);
    expect(where(second.dbg, f2)).toBe('s:6');
  });

  it("a breakpoint on a call's line stops once: returning to the line is not a second hit", () => {
    const { vm, dbg, out } = setUp();
    dbg.setBreakpoints([7, 8]);
    const fiber = vm.cast('go', [5]);
    expect(where(dbg, fiber)).toBe('go:7');
    dbg.continue(fiber);
    expect(where(dbg, fiber)).toBe('go:8');
    expect(out).toEqual([]);
    dbg.continue(fiber);
    expect(out).toEqual(['11']);
    expect(fiber.state).toBe('suspended');
  });

  it('pauses on every iteration of a loop at a breakpoint', () => {
    const { vm, dbg, out } = setUp('var total = 0;\nfor (var i = 0; i < 3; i = i + 1) {\n  total = total + i;\n}\nprint total;\n', false);
    dbg.setBreakpoints([3]);
    const fiber = vm.runScript();
    const seen: string[] = [];
    while (fiber.state === 'paused') {
      seen.push(dbg.callStack(fiber)[0]!.locals.find((l) => l.name === 'i')!.value);
      dbg.continue(fiber);
    }
    expect(seen).toEqual(['0', '1', '2']);
    expect(out).toEqual(['3']);
  });

  it('gives the values a frame sees, raw, with its captured variables named', () => {
    const source = `fun outer() {
  var count = [1, 2];
  fun again(n) {
    var twice = n * 2;
    count[0] = twice;
    return again;
  }
  return again;
}
var step = outer();
step(5);
`;
    const { vm, dbg } = setUp(source, false);
    dbg.setBreakpoints([5]);
    const fiber = vm.runScript();
    expect(fiber.state).toBe('paused');
    const inner = dbg.frameValues(fiber, 0)!;
    expect(inner.locals).toEqual([
      { name: 'n', value: 5 },
      { name: 'twice', value: 10 },
    ]);
    expect(inner.upvalues.map((u) => u.name)).toEqual(['count', 'again']);
    expect((inner.upvalues[0]!.value as ObjList).items).toEqual([1, 2]);
    expect(dbg.frameValues(fiber, 1)).toEqual({ locals: [], upvalues: [] }); // the script: `step` is a global
    expect(dbg.frameValues(fiber, 2)).toBeNull();
  });

  it('detaching restores the original code', () => {
    const { vm, dbg } = setUp();
    for (const fn of vm.runtimeFunctions) expect(fn.code).not.toBe(fn.fast);
    dbg.detach();
    for (const fn of vm.runtimeFunctions) expect(fn.code).toBe(fn.fast);
    const fiber = vm.cast('go', [1]);
    expect(fiber.state).toBe('suspended');
  });

  it('patches only line starts, jump targets and return points', () => {
    const { vm } = setUp();
    const go = vm.runtimeFunctions.find((f) => f.name === 'go')!;
    const starts = lineStarts(go.original, go.lines);
    expect(starts[0]).toBe(0);
    const returns = returnPoints(go.original);
    // add(y, 1): the call's return point is where line 8 starts.
    expect(returns.map((pc) => go.lines[pc])).toEqual([8]);
    const patched = [...go.code.entries()].filter(([, w]) => w === Op.BREAK).map(([pc]) => pc);
    expect(patched).toEqual([...new Set([...starts, ...returns])].sort((a, b) => a - b));
  });
});
