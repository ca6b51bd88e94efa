/**
 * Map methods and string comparisons give the same results, errors, fuel and
 * heap in both tiers: `m.get` / `m.has` / `m.remove` done in place (INVOKE's
 * inline path) and through the method table, `==` on strings built at run
 * time, short and long (a long one is charged).
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { LOOP_PAUSE } from './compiled/statuses.js';
import type { Fiber } from './fiber.js';
import { VM, type Tier } from './vm.js';

function run(source: string, tier: Tier, fuel: number, maxHeap: number): string[] {
  const { module, diagnostics } = compile(source, { hosts: CORE_HOST_FUNCTIONS });
  if (module === null) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const lines: string[] = [];
  const vm = new VM(module, { hosts: CORE_HOST_FUNCTIONS, print: (text) => lines.push(text), tier, fuel, maxHeap });
  const fiber: Fiber = vm.runScript();
  lines.push(JSON.stringify({ state: fiber.state, error: fiber.error?.format() ?? null, fuel: fiber.fuel, heap: fiber.heapUsed }));
  // The compiled tier really ran (a body it cannot compile would leave the function on the interpreter).
  expect(vm.compileFailures).toEqual([]);
  return lines;
}

function sameInBothTiers(source: string, budgets: readonly (readonly [number, number])[]): string[] {
  const transcripts = budgets.map(([fuel, maxHeap]) => {
    const interpreted = run(source, 'interpreter', fuel, maxHeap);
    for (const tier of ['compiled', 'auto'] as const) expect(run(source, tier, fuel, maxHeap)).toEqual(interpreted);
    return interpreted;
  });
  return transcripts[0]!; // the run with no limit
}

const BUDGETS = [[1e9, 1e9], [5_000, 1e9], [1e9, 400], [777, 300]] as const;

describe('maps and strings in both tiers', () => {
  it('map methods done in place and through the table', () => {
    const lines = sameInBothTiers(
      `fun f(n) {
         var m = {"a": 1};
         var total = 0;
         for (var i = 0; i < n; i = i + 1) {
           var k = i % 5;
           m["a"] = m.get("a", 0) + 1;
           if (m.has(k)) m[k] = m[k] + 1; else m[k] = 1;
           if (i % 3 == 0) total = total + m.remove(k);
           total = total + m.get("b", 2) + len(m.keys());
           if (m.get(true) == nil) total = total + 1;
           if (m.has(-0)) total = total + 10;
         }
         print total;
         print m;
         print m.get("zz", 1, 2);
       }
       f(60);`,
      BUDGETS,
    );
    // As the build before the inline path printed.
    expect(lines.slice(0, 2)).toEqual(['886', '{a: 61, 0: 2, 3: 2, 1: 1, 4: 1}']);
    expect(lines.at(-1)).toContain('Expected 1 to 2 arguments but got 3.');
  });

  it('removing a missing key fails the same way from compiled code', () => {
    const lines = sameInBothTiers(
      `fun f(n) { var m = {}; for (var i = 0; i < n; i = i + 1) { m[i] = i; if (i == 30) m.remove("x"); } }
       f(40);`,
      BUDGETS,
    );
    expect(lines.at(-1)).toContain("Undefined key 'x'.");
  });

  it('== on strings built at run time, short and long', () => {
    const lines = sameInBothTiers(
      `fun f(n) {
         var long = "";
         for (var i = 0; i < 40; i = i + 1) long = long + "abc";
         var a = "abcdefghijklmnopqrstuvwxyz" + "1";
         var b = "abcdefghijklmnopqrstu" + "vwxyz1";
         var c = long + "x";
         var d = long + "x";
         var count = 0;
         for (var i = 0; i < n; i = i + 1) {
           if (a == b) count = count + 1;
           if (a != "abcdefghijklmnopqrstuvwxyz2") count = count + 1;
           if (c == d) count = count + 1;
           if (c == long) count = count + 1;
           if (a == 1) count = count + 100;
           if (1 == a) count = count + 100;
           if (nil == a) count = count + 100;
         }
         print count;
       }
       f(200);`,
      BUDGETS,
    );
    expect(lines[0]).toBe('600');
  });

  it(`a compiled loop that pauses every ${LOOP_PAUSE} back edges (AGAIN), on through them and out of it`, () => {
    // Top level: the loop runs as a compiled loop (tier auto), with a map and strings in it; fuel runs out before,
    // around and after its pauses.
    const count = 3 * LOOP_PAUSE + 500;
    const source = `var m = {};
      var s = "";
      var n = 0;
      for (var i = 0; i < ${count}; i = i + 1) {
        m[i % 7] = m.get(i % 7, 0) + 1;
        if (s == "ab") n = n + 1;
        if (i % 1000 == 0) s = s + "a"; else if (s == "a") s = s + "b";
      }
      print n;
      print m;`;
    // The fuel one pause's worth of the loop costs (116 a time round), and budgets around 1, 2 and 3 of them.
    const perPause = 116 * LOOP_PAUSE;
    const fuels = [1e9, perPause / 2, 2 * perPause, 2 * perPause + 1234, 3 * perPause + 7];
    const lines = sameInBothTiers(source, fuels.map((fuel) => [fuel, 1e9] as const));
    const counts = Array.from({ length: 7 }, (_, k) => Math.floor((count - 1 - k) / 7) + 1);
    expect(lines.slice(0, 2)).toEqual(['999', `{${counts.map((c, k) => `${k}: ${c}`).join(', ')}}`]);
  });

  it('m[k] = v with -0, 0, numbers, strings and a nan key', () => {
    const lines = sameInBothTiers(
      `fun f(n) {
         var m = {};
         for (var i = 0; i < n; i = i + 1) { m[-0] = i; m[0] = i + 1; m[i - 2] = "x"; m[str(i)] = i; }
         print m.keys();
         m[0 / 0] = 1;
       }
       f(5);`,
      BUDGETS,
    );
    // As the build before the fast path printed: -0 kept as added, "0" (a string) apart from 0.
    expect(lines[0]).toBe('[-0, -2, 0, -1, 1, 2, 1, 3, 2, 4]');
    expect(lines.at(-1)).toContain('A map key cannot be nan.');
  });

  it('the same code calling other method names: each picks its own map method (or none) in compiled code', () => {
    // These spells compile to the same bytecode but for their method-name constants; compiled code picks the map
    // method from the name's constant, so the source each gets must differ (the remembered source's key).
    const program = (name: string) => `fun f(n) {
         var m = {0: 1, 1: 2};
         var total = "";
         for (var i = 0; i < n; i = i + 1) total = total + str(m.${name}(i % 3)) + " ";
         print total;
       }
       f(4);`;
    const printed = ['get', 'has', 'remove', 'keys'].map((name) => sameInBothTiers(program(name), [[1e9, 1e9], [600, 1e9]])[0]);
    expect(printed).toEqual([
      '1 2 nil 1 ',
      'true true false true ',
      expect.stringContaining('Undefined key 2.'),
      expect.stringContaining('Expected 0 arguments but got 1.'),
    ]);
  });
});
