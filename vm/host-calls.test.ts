/**
 * Host calls give the same outcome on both tiers: CALL_HOST calls the
 * implementation itself (vm/instructions/calls.ts, with enterHost / leaveHost /
 * hostFailed around it) and CALL on a host function value goes through
 * callHost; every road must check, charge, report and restore the same.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { HostError } from './errors.js';
import type { Fiber } from './fiber.js';
import { hostFunction, type HostFunction } from './host.js';
import type { HostObject, Value } from './value.js';
import { VM, type Tier } from './vm.js';

const num = (name: string) => ({ name, type: 'number' as const });

/** A host object for entity parameters. */
const THING: HostObject = {
  objectType: 'host',
  hostType: 'thing',
  getProperty: () => undefined,
  setProperty: () => {},
  invokeMethod: () => undefined,
  display: () => '<thing>',
  equals: (other) => other === THING,
};

function hosts(vmOf: () => VM): HostFunction[] {
  return [
    hostFunction({ name: 'zero', params: [], returns: 'number', doc: 'd', impl: () => 7 }),
    hostFunction({ name: 'one', params: [num('a')], returns: 'number', doc: 'd', impl: (_c, a) => a * 2 }),
    hostFunction({ name: 'two', params: [num('a'), num('b')], returns: 'number', doc: 'd', impl: (_c, a, b) => a - b }),
    hostFunction({ name: 'three', params: [num('a'), num('b'), num('c')], returns: 'number', doc: 'd', impl: (_c, a, b, c) => a * b - c }),
    hostFunction({ name: 'four', params: [num('a'), num('b'), num('c'), num('d')], returns: 'number', doc: 'd', impl: (_c, a, b, c, d) => a + b + c + d }),
    hostFunction({
      name: 'five',
      params: [num('a'), num('b'), num('c'), num('d'), num('e')],
      returns: 'number',
      doc: 'd',
      impl: (_c, a, b, c, d, e) => a + b + c + d + e,
    }),
    hostFunction({ name: 'text', params: [{ name: 's', type: 'string' }], returns: 'number', doc: 'd', fuel: 3, impl: (_c, s) => s.length }),
    hostFunction({ name: 'anything', params: [{ name: 'x', type: 'any' }], returns: 'any', doc: 'd', impl: (_c, x) => x }),
    hostFunction({
      name: 'boom',
      params: [],
      returns: 'nil',
      doc: 'd',
      impl: () => {
        throw new HostError('Boom.');
      },
    }),
    hostFunction({
      name: 'crash',
      params: [],
      returns: 'nil',
      doc: 'd',
      impl: () => {
        throw new TypeError('x is undefined');
      },
    }),
    { name: 'bad', params: [], returns: 'any', doc: 'd', impl: () => ({}) as unknown as Value },
    { name: 'undef', params: [], returns: 'nil', doc: 'd', impl: () => undefined as unknown as Value },
    hostFunction({
      name: 'greedy',
      params: [],
      returns: 'nil',
      doc: 'd',
      impl: (ctx) => {
        try {
          ctx.chargeFuel(1e9);
        } catch {
          // swallowed on purpose: the budget is still spent
        }
        return null;
      },
    }),
    hostFunction({ name: 'where', params: [], returns: 'number', doc: 'd', impl: (ctx) => ctx.line }),
    { name: 'thing', params: [], returns: 'any', doc: 'd', impl: () => THING },
    hostFunction({ name: 'poke', params: [{ name: 'e', type: 'entity' }, num('n')], returns: 'number', doc: 'd', impl: (_c, e, n) => (e === THING ? n + 1 : -1) }),
    hostFunction({ name: 'mixed', params: [{ name: 'f', type: 'bool' }, num('n')], returns: 'number', doc: 'd', impl: (_c, f, n) => (f ? n : -n) }),
    hostFunction({
      name: 'again',
      params: [num('n')],
      returns: 'number',
      doc: 'd',
      // Re-entrancy: a cast of its own on the same VM, in the middle of this call.
      impl: (ctx, n) => {
        const inner = vmOf().cast('inner', [n]);
        return (inner.result as number) + ctx.line * 1000;
      },
    }),
    hostFunction({
      name: 'nap',
      params: [],
      returns: 'nil',
      doc: 'd',
      impl: (ctx) => {
        ctx.suspend();
        return null;
      },
    }),
  ];
}

const SPELLS = `
spell inner(n) { return n + where(); }
spell counts(x) {
  var s = 0;
  for (var i = 0; i < 5; i += 1) {
    s = s + zero() + one(i) + two(i, x) + three(i, 2, x) + four(1, 2, 3, i) + five(1, 2, 3, 4, i) + text("abc");
  }
  return s + where();
}
spell values(x) { var f = one; var g = five; return [anything(x), undef(), f(4), g(1, 1, 1, 1, 1), anything("t")]; }
spell wrongType(x) { return one(anything("no")); }
spell wrongValue(x) { var f = three; return f(1, "two", 3); }
spell hostError(x) { zero();
  boom(); }
spell exception(x) { zero(); zero();
  crash(); }
spell badResult(x) { return bad(); }
spell swallowed(x) { greedy(); return 1; }
spell reentrant(x) { var a = again(x);
  return a + where(); }
spell napping(x) { var a = one(x); nap(); return a + where(); }
spell entities(x) { var t = thing(); return poke(t, x) + poke(thing(), x * 2) + mixed(x > 0, x + 1); }
spell wrongEntity(x) { return poke(thing(), 1) + poke(x, 2); }
spell wrongBool(x) { return mixed(x > 0, 1) + mixed(x, 2); }
spell napDeep(x) { var a = 10; return a * 2 + three(x, nap(), x + 1) + x; }
spell napMiddle(x) { return [x, x * 3, two(x * 2 + 1, nap()), one(x)]; }
spell joins(x) {
  var a = x > 0 and one(x);
  var b = x > 1 or two(x, zero());
  var l = [x, x > 0 and one(x + 1), x * 2 + (x < 0 or one(two(x, zero()) + 7))];
  return [a, b, l];
}
`;

function describeRun(fiber: Fiber, vm: VM): string {
  const parts = [fiber.state, JSON.stringify(fiber.result ?? null)];
  if (fiber.state === 'suspended') {
    const resumed = vm.resume(fiber, 5);
    parts.push('resumed', resumed.state, JSON.stringify(resumed.result ?? null));
  }
  if (fiber.error) parts.push(fiber.error.message, JSON.stringify(fiber.error.trace), String(fiber.error.limit));
  return parts.join(' | ');
}

function runAll(tier: Tier): string[] {
  let vm: VM | null = null;
  const table = hosts(() => vm!);
  const { module, diagnostics } = compile(SPELLS, { sourceName: 'hosts.spell', hosts: table });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  vm = new VM(module, { hosts: table, tier, fuel: 100_000 });
  const lines: string[] = [];
  for (const spell of [
    'counts',
    'values',
    'wrongType',
    'wrongValue',
    'hostError',
    'exception',
    'badResult',
    'swallowed',
    'reentrant',
    'napping',
    'entities',
    'wrongEntity',
    'wrongBool',
    'napDeep',
    'napMiddle',
    'joins',
  ]) {
    for (let i = 0; i < 3; i++) {
      const fiber = vm.cast(spell, [i]);
      lines.push(`${spell}(${i}): ${describeRun(fiber, vm)}`);
    }
  }
  // A cast loop (compiled spells start in compiled code) gives the same outcomes.
  for (const spell of ['counts', 'entities', 'wrongEntity']) {
    const loop = vm.castLoop(spell);
    for (let i = 0; i < 3; i++) {
      const out = loop.run([i]);
      lines.push(`loop ${spell}(${i}): ${out.state} ${JSON.stringify(out.result)} ${out.error?.message ?? ''}`);
    }
    loop.close();
  }
  return lines;
}

describe('host calls on both tiers', () => {
  it('check, call, charge, fail, restore the context and resume the same on the interpreter and in compiled code', () => {
    const interpreted = runAll('interpreter');
    const compiled = runAll('compiled');
    expect(compiled).toEqual(interpreted);
    // And what they say is what callHost always said.
    const text = interpreted.join('\n');
    expect(text).toContain('Argument 1 of one() must be a number.');
    expect(text).toContain('Argument 2 of three() must be a number.');
    expect(text).toContain('hostError(0): failed | null | Boom. | [{"functionName":"hostError","line":14}');
    expect(text).toContain("Host function 'crash' failed: x is undefined | [{\"functionName\":\"exception\",\"line\":16}");
    expect(text).toContain("Host function 'bad' returned a value spells cannot use.");
    expect(text).toMatch(/swallowed\(0\): failed \| null \| Out of fuel/);
    expect(text).toContain('napping(2): suspended | null | resumed | done | 25');
    // Arguments compiled code holds in locals (vm/generator/case-writer.ts, heldHostCheck): checked as on the stack.
    expect(text).toContain('entities(2): done | 11');
    expect(text).toContain('wrongEntity(0): failed | null | Argument 1 of poke() must be an entity.');
    expect(text).toContain('wrongBool(0): failed | null | Argument 1 of mixed() must be a boolean.');
    // A wait with values below the call's arguments in locals: they are on the stack when the cast resumes.
    expect(text).toContain('napDeep(2): suspended | null | resumed | done | 29');
    expect(text).toContain('napMiddle(1): suspended | null | resumed | done | {"items":[1,3,-2,2]');
    // Calls whose result ends a block (where `and` / `or` join), with values below them.
    expect(text).toMatch(/joins\(2\): done \| \{"items":\[4,true,\{"items":\[2,6,8\]/);
  });
});
