/**
 * A loop compiled alone holds the enclosing scope's slots it uses in JS
 * locals (promotedSlots, vm/compiled/loop-locals.ts) and writes them back
 * before calls, heap charges, its way out and errors. These loops run on the
 * interpreter, and compiled alone (tier auto, the function called once), with
 * several fuel and heap budgets: the same output, errors, fuel and heap.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from '../builtins.js';
import { VM, type Tier } from '../vm.js';

function run(source: string, tier: Tier, fuel: number, maxHeap: number, heapCounts: 'allocated' | 'retained' = 'allocated'): string[] {
  const { module, diagnostics } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
  if (module === null) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const lines: string[] = [];
  const vm = new VM(module, { hosts: CORE_HOST_FUNCTIONS, print: (text) => lines.push(text), tier, fuel, maxHeap, heapCounts });
  const fiber = vm.runScript();
  lines.push(JSON.stringify({ state: fiber.state, error: fiber.error?.format() ?? null, fuel: fiber.fuel, heap: fiber.heapUsed }));
  expect(vm.compileFailures).toEqual([]);
  if (tier === 'auto' && fuel === 1e9 && maxHeap === 1e9) expect(vm.compileStats.words).toBeGreaterThan(0);
  return lines;
}

/** The transcript of the run with no limit, after checking every budget gives the interpreter's transcript in tier auto. */
function sameInBothTiers(source: string): string[] {
  const budgets = [[1e9, 1e9], [60_000, 1e9], [123_457, 1e9], [1e9, 2_000], [250_001, 5_000]] as const;
  const transcripts = budgets.map(([fuel, maxHeap]) => {
    const interpreted = run(source, 'interpreter', fuel, maxHeap);
    expect(run(source, 'auto', fuel, maxHeap)).toEqual(interpreted);
    return interpreted;
  });
  return transcripts[0]!;
}

describe('frame slots a compiled loop holds in locals', () => {
  it('are written back for a callee, a closure that captures another slot, and after the loop', () => {
    const lines = sameInBothTiers(
      `fun f(n) {
         var total = 0;
         var seen = 0;
         var text = "";
         fun bump() { seen = seen + 2; return seen; }
         for (var i = 0; i < n; i = i + 1) {
           total = total + i % 7 + bump() % 3;
           if (i % 500 == 0) text = text + "x";
           if (total > 100000000) break;
         }
         print total;
         print seen;
         print len(text);
         return total + seen;
       }
       print f(6000);`,
    );
    expect(lines.slice(0, 4)).toEqual(['23997', '12000', '12', '35997']);
  });

  it('survive a for-in over a map, a return from inside the loop and nested loops', () => {
    const lines = sameInBothTiers(
      `fun g(n) {
         var m = {};
         var sum = 0;
         var outer = 0;
         for (var i = 0; i < n; i = i + 1) {
           m[i % 50] = i;
           for (var j = 0; j < 3; j = j + 1) outer = outer + j;
           if (i == n - 1) {
             for (k in m) sum = sum + m[k];
             return sum + outer;
           }
         }
         return -1;
       }
       print g(4000);`,
    );
    expect(lines[0]).toBe(String((3950 + 3999) * 25 + 4000 * 3));
  });

  it('leave a for-in loop compiled alone its list and index on the stack', () => {
    const lines = sameInBothTiers(
      `fun e(n) {
         var m = {};
         for (var i = 0; i < n; i = i + 1) m["k" + str(i)] = i;
         var total = 0;
         var count = 0;
         for (k in m) {
           total = total + m[k];
           count = count + 1;
         }
         for (x in [1, 2, 3]) total = total + x;
         return str(total) + " " + str(count);
       }
       print e(20000);`,
    );
    expect(lines[0]).toBe(`${(19999 * 20000) / 2 + 6} 20000`);
  });

  it('are on the stack when a retained-heap measurement reads it', () => {
    // \`big\` is held in a local and grows (no call in the loop writes it back); a measurement past maxHeap
    // at the next concatenation must count its current value.
    const source = `fun f(n) {
         var big = "";
         var small = "";
         for (var i = 0; i < n; i = i + 1) {
           big = big + "abcdefghij";
           small = small + "x";
           if (i % 300 == 0) { big = ""; small = ""; }
         }
         return len(big) + len(small);
       }
       print f(20000);`;
    for (const [fuel, maxHeap] of [[1e9, 6_000], [1e9, 9_000], [400_003, 7_000], [1e9, 1e9]] as const) {
      const interpreted = run(source, 'interpreter', fuel, maxHeap, 'retained');
      expect(run(source, 'auto', fuel, maxHeap, 'retained')).toEqual(interpreted);
    }
  });

  it('are on the stack when an error stops the loop', () => {
    const lines = sameInBothTiers(
      `fun h(n) {
         var acc = 0;
         var list = [1, 2, 3];
         for (var i = 0; i < n; i = i + 1) {
           acc = acc + list[i % 3];
           if (i == n - 2) acc = acc + list[10];
         }
         return acc;
       }
       print h(5000);`,
    );
    expect(lines.at(-1)).toContain('out of range');
  });
});

describe('block-scoped variables a compiled loop mirrors in locals', () => {
  it('follow every write: a call result, an assignment, a branch, a method of a map', () => {
    const lines = sameInBothTiers(
      `fun twice(x) { return x * 2; }
       fun f(n) {
         var total = 0;
         var m = {};
         for (var i = 0; i < n; i = i + 1) {
           var a = twice(i % 13);
           var b = i % 5;
           if (b == 3) b = a + 1;
           else a = a - b;
           var c = m.get(b, 0);
           m[b] = c + a;
           var d = str(a);
           total = total + a + b + c % 7 + len(d);
           if (i % 100 == 0) { var e = twice(b); total = total + e; }
         }
         print len(m);
         return total;
       }
       print f(6000);`,
    );
    expect(lines.length).toBeGreaterThan(2);
  });

  it('are not mirrored when a closure captures them, and a nested for-in keeps its own', () => {
    const lines = sameInBothTiers(
      `fun g(n) {
         var fns = [];
         var total = 0;
         for (var i = 0; i < n; i = i + 1) {
           var k = i % 10;
           fun add(x) { k = k + x; return k; }
           total = total + add(1) + k;
           var row = [k, k + 1];
           for (v in row) total = total + v;
           if (i % 1000 == 0) fns.append(add);
         }
         for (h in fns) total = total + h(0);
         return total;
       }
       print g(5000);`,
    );
    expect(lines.length).toBeGreaterThan(1);
  });

  it('are on the stack for a retained-heap measurement and an error', () => {
    const source = `fun f(n) {
         var kept = "";
         for (var i = 0; i < n; i = i + 1) {
           var piece = "abcdefghij" + str(i % 10);
           var again = piece + piece;
           kept = kept + again;
           if (i % 200 == 0) kept = "";
           if (i == n - 1) { var broken = [1][again]; }
         }
         return len(kept);
       }
       print f(9000);`;
    for (const [fuel, maxHeap] of [[1e9, 6_000], [1e9, 9_000], [400_003, 7_000], [1e9, 1e9]] as const) {
      const interpreted = run(source, 'interpreter', fuel, maxHeap, 'retained');
      expect(run(source, 'auto', fuel, maxHeap, 'retained')).toEqual(interpreted);
    }
  });
});
