/**
 * Instances allocate their field array at the size their class has reached
 * (ObjClass.fieldCapacity), so slots past an instance's shape exist but are not
 * fields. These tests check that such a slot is never seen as a field, and that
 * nothing a spell can observe (output, errors, fuel, heap, snapshots) depends on
 * what the class had learned when the instance was made.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { HEAP_COST } from './costs.js';
import type { Fiber } from './fiber.js';
import { restoreVm, saveVm, type VmSnapshot } from './fiber-snapshot.js';
import { ObjClass, ObjInstance } from './objects.js';
import { measureRetained, type RetainedCount } from './retained-heap.js';
import { RUN_HOSTS } from './test-support/run-hosts.js';
import { VM, type Tier } from './vm.js';

const HOSTS = RUN_HOSTS;
const TIERS: readonly Tier[] = ['interpreter', 'compiled', 'auto'];

function vmFor(source: string, tier: Tier, printed: string[]): VM {
  const { module, diagnostics } = compile(source, { hosts: HOSTS });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return new VM(module!, { hosts: HOSTS, print: (t) => printed.push(t), tier });
}

function runIn(source: string, tier: Tier): { out: string[]; fiber: Fiber } {
  const out: string[] = [];
  const fiber = vmFor(source, tier, out).runScript();
  return { out, fiber };
}

describe('ObjInstance field storage', () => {
  it('sizes a new instance by the fields its class reached, and a preallocated slot is not a field', () => {
    const klass = new ObjClass('P');
    const first = new ObjInstance(klass);
    const other = new ObjInstance(klass);
    expect(first.values.length).toBe(0); // the shared empty array: the class knew no fields
    other.setField('x', 1); // not written into the shared array
    expect(first.values).toEqual([]);
    expect(other.values).toEqual([1]);
    for (const name of ['a', 'b', 'c', 'd']) first.setField(name, name);
    expect(klass.fieldCapacity).toBe(4);

    const second = new ObjInstance(klass);
    const empty = new ObjInstance(klass);
    expect(second.values.length).toBe(4);
    expect(second.fieldNames()).toEqual([]);
    expect(second.getField('a')).toBeUndefined();
    expect(second.setField('a', 1)).toBe(HEAP_COST.field); // the shape exists: only the field is charged
    expect(empty.values).toEqual([null, null, null, null]);
    expect(second.setField('b', 2)).toBe(HEAP_COST.field);
    expect(second.fieldNames()).toEqual(['a', 'b']);
    expect(second.getField('c')).toBeUndefined();
    expect(second.setField('a', 10)).toBe(0);
    expect([second.getField('a'), second.getField('b')]).toEqual([10, 2]);
  });

  it('grows past what its class expected, adding the new field at the end', () => {
    const klass = new ObjClass('P');
    const small = new ObjInstance(klass);
    small.setField('a', 1);
    const made = new ObjInstance(klass);
    expect(made.values.length).toBe(1); // the class's capacity then
    made.setField('a', 1);
    // A new shape of 2 fields: the field, and the new shape's slot map.
    expect(made.setField('b', 2)).toBe(HEAP_COST.field + HEAP_COST.shapeField * 2);
    made.setField('c', 3);
    expect(made.fieldNames()).toEqual(['a', 'b', 'c']);
    expect([made.getField('a'), made.getField('b'), made.getField('c')]).toEqual([1, 2, 3]);
    expect(klass.fieldCapacity).toBe(3);
  });

  it('going to dictionary mode copies the fields it has, not the preallocated slots', () => {
    const klass = new ObjClass('Bag');
    const full = new ObjInstance(klass);
    for (let i = 0; i < 64; i++) full.setField(`f${i}`, i);
    expect(klass.fieldCapacity).toBe(64);
    const partial = new ObjInstance(klass);
    partial.setField('x', 'x'); // a new branch of the shape tree
    expect(partial.values.length).toBe(64);
    partial.setField('y', 'y');
    expect(partial.isDictionary).toBe(false);
    // Fill to the cap on this branch, then one more goes to dictionary mode, copying the 64 fields.
    for (let i = 2; i < 64; i++) partial.setField(`g${i}`, i);
    expect(partial.setField('over', 0)).toBe(HEAP_COST.field + 64);
    expect(partial.isDictionary).toBe(true);
    expect(partial.fieldNames().length).toBe(65);
    expect(partial.getField('x')).toBe('x');
    expect(partial.getField('f0')).toBeUndefined();
    expect(new ObjInstance(new ObjClass('Empty')).values).toEqual([]);
  });
});

describe('measuring retained memory', () => {
  it('counts an instance by its fields, not by its preallocated slots', () => {
    const klass = new ObjClass('P');
    const grew = new ObjInstance(klass); // made while the class knew no fields
    grew.setField('a', 'xy');
    grew.setField('b', 2);
    const big = new ObjInstance(klass);
    for (const name of ['a', 'b', 'c', 'd']) big.setField(name, 'long string');
    const preallocated = new ObjInstance(klass);
    preallocated.setField('a', 'xy');
    preallocated.setField('b', 2);
    expect(preallocated.values.length).toBe(4);

    const noFiber = { stack: [], sp: 0, frameCount: 0, frameClosures: [] } as unknown as Fiber;
    const measure = (root: ObjInstance): RetainedCount => {
      const out: RetainedCount = { units: 0, visits: 0, objects: 0 };
      expect(measureRetained(noFiber, 0, 0, [root], Infinity, Infinity, out)).toBe('complete');
      return out;
    };
    const classUnits = HEAP_COST.class + HEAP_COST.shapeField * klass.shapeFields;
    expect(measure(grew)).toEqual(measure(preallocated));
    expect(measure(preallocated).units).toBe(HEAP_COST.instance + 2 * HEAP_COST.field + 'xy'.length + classUnits);
  });
});

describe('instance fields in every tier', () => {
  // The same statements in two orders: the small instance is made before or after its class
  // learned 4 fields, so it is preallocated or grows. Nothing observable may differ.
  const body = (smallFirst: boolean): string => {
    const small = 'var small = P(); small.b = "b"; small.a = "a";';
    const big = 'var big = P(); big.a = 1; big.b = 2; big.c = 3; big.d = 4;';
    return `
      class P {}
      ${smallFirst ? small : big}
      ${smallFirst ? big : small}
      fun show(o) { return str(o.a) + str(o.b); }
      print show(small); print show(big); print big.c + big.d;
      small.c = "c";
      print small.c;
      print small.d;
    `;
  };

  it('reads, writes and misses fields the same whether the instance was preallocated or grew', () => {
    const results = TIERS.flatMap((tier) => [runIn(body(true), tier), runIn(body(false), tier)]);
    for (const { out, fiber } of results) {
      expect(out).toEqual(['ab', '12', '7', 'c']);
      expect(fiber.error!.message).toBe("Undefined property 'd'.");
    }
    const heap = results.map((r) => r.fiber.heapUsed);
    const fuel = results.map((r) => r.fiber.fuel);
    expect(new Set(heap).size).toBe(1);
    expect(new Set(fuel).size).toBe(1);
  });

  it('a loop of instances with fields in different orders, through the cached transitions', () => {
    const source = `
      class Node {}
      var total = 0;
      for (var i = 0; i < 300; i = i + 1) {
        var n = Node();
        if (i % 3 == 0) { n.x = i; n.y = 1; } else { n.y = 1; n.x = i; }
        if (i % 7 == 0) { n.z = 2; n.w = 3; }
        total = total + n.x + n.y;
        if (i % 7 == 0) total = total + n.z + n.w;
      }
      print total;
      var late = Node(); late.y = 5;
      print late.y;
      print late.x;
    `;
    const runs = TIERS.map((tier) => runIn(source, tier));
    const expected = String((299 * 300) / 2 + 300 + 43 * 5);
    for (const { out, fiber } of runs) {
      expect(out).toEqual([expected, '5']);
      expect(fiber.error!.message).toBe("Undefined property 'x'.");
    }
    expect(new Set(runs.map((r) => `${r.fiber.heapUsed} ${r.fiber.fuel}`)).size).toBe(1);
  });
});

/** How many fields each instance in a snapshot lists. */
function instanceFieldCounts(data: unknown): number[] {
  const counts: number[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      if (record['t'] === 'instance' && Array.isArray(record['fields'])) counts.push(record['fields'].length);
      Object.values(record).forEach(visit);
    }
  };
  visit(data);
  return counts;
}

describe('a snapshot of a partly filled instance', () => {
  const SOURCE = `
    class P {}
    var big = P(); big.a = 1; big.b = 2; big.c = 3; big.d = 4;
    spell run(k) {
      var p = P(); p.a = k; p.b = k + 1;
      pause(0);
      p.c = 30;
      print p.a + p.b + p.c;
      print p.d;
    }
  `;

  it('saves only its fields and continues the same after restoring', () => {
    const straightOut: string[] = [];
    const straight = vmFor(SOURCE, 'interpreter', straightOut);
    straight.runScript();
    const straightFiber = straight.cast('run', [10]);
    straight.resume(straightFiber, null);

    for (const tier of TIERS) {
      const out: string[] = [];
      const vm = vmFor(SOURCE, tier, out);
      vm.runScript();
      const fiber = vm.cast('run', [10]);
      expect(fiber.state).toBe('suspended');
      const data = JSON.parse(JSON.stringify(saveVm(vm, [fiber]))) as VmSnapshot;
      // big's four fields and p's two: no preallocated slot is saved as a field.
      expect(instanceFieldCounts(data).sort()).toEqual([2, 4]);

      const restoredOut: string[] = [];
      const fresh = vmFor(SOURCE, tier, restoredOut);
      const [copy] = restoreVm(fresh, data);
      fresh.resume(copy!, null);
      expect(restoredOut).toEqual(straightOut);
      expect(copy!.error!.message).toBe("Undefined property 'd'.");
      expect(copy!.heapUsed).toBe(straightFiber.heapUsed);
    }
    expect(straightOut).toEqual(['51']);
  });
});
