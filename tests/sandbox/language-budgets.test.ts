/**
 * The language's builtins cannot run past the budgets (issue 11): every
 * string, list and map method, map literals and template strings charge
 * fuel for their work and heap for what they keep, so each loop below ends
 * with a clean budget error instead of running long or growing without end.
 */
import { describe, expect, it } from 'vitest';
import type { BudgetLimit } from '../../vm/errors.js';
import { makeVm } from './sandbox-helpers.js';

function limitHit(source: string, budgets: { fuel?: number; maxHeap?: number }): BudgetLimit | null {
  const { vm } = makeVm(source, budgets);
  const fiber = vm.runScript();
  expect(fiber.state).toBe('failed');
  return fiber.error?.limit ?? null;
}

// A megabyte string built in a few instructions (doubling), then worked on.
const BIG = 'var s = "x"; for (var i = 0; i < 20; i += 1) s = s + s;';

describe('language builtins charge their work', () => {
  it.each([
    ['split of a 1 MB string', `${BIG} s.split("");`],
    ['upper of a 1 MB string', `${BIG} s.upper();`],
    ['indexOf over a 1 MB string', `${BIG} s.indexOf("y");`],
    ['slice copies', `${BIG} s.slice(0);`],
    ['sort of a long list', 'var l = []; for (var i = 0; i < 3000; i += 1) l.append(3000 - i); l.sort(); l.sort(); l.sort();'],
    ['join of a list whose text doubles per level', 'var l = [1]; for (var i = 0; i < 30; i += 1) l = [l, l]; l.join(",");'],
    ['a template of a list whose text doubles per level', 'var l = [1]; for (var i = 0; i < 30; i += 1) l = [l, l]; print `${l}`;'],
    ['contains over a long list', 'var l = []; for (var i = 0; i < 5000; i += 1) l.append(i); for (var j = 0; j < 10; j += 1) l.contains(-1);'],
  ])('%s runs out of fuel', (_name, source) => {
    expect(limitHit(source, { fuel: 60_000, maxHeap: 100_000_000 })).toBe('fuel');
  });

  it.each([
    ['map entries', 'var m = {}; var i = 0; while (true) { m[i] = i; i += 1; }'],
    ['map literals in a loop', 'var keep = []; while (true) keep.append({"a": 1, "b": 2, "c": 3});'],
    ['keys() copies', 'var m = {}; for (var i = 0; i < 100; i += 1) m[i] = i; var keep = []; while (true) keep.append(m.keys());'],
    ['a template in a loop', 'var s = "x"; while (true) s = `${s}${s}`;'],
    ['split parts', 'var s = "a,b,c,d,e,f,g,h"; var keep = []; while (true) keep.append(s.split(","));'],
    ['for-in over a map snapshots its keys', 'var m = {}; for (var i = 0; i < 1000; i += 1) m[i] = i; while (true) for (k in m) {}'],
  ])('%s count against the heap', (_name, source) => {
    expect(limitHit(source, { fuel: 1_000_000_000, maxHeap: 20_000 })).toBe('heap');
  });
});
