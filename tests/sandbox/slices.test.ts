/**
 * Budgets bound a slice — the work from a cast's start or resume to its next
 * `wait` — and the memory a cast keeps across a wait, never a cast's whole
 * life (issue 17, part 1): an aura that waits every tick lives as long as the
 * game, a loop that never waits stops on fuel exactly where it always did, a
 * cast that hoards across waits stops on memory. Asserted on events, fuel
 * and heap counts, never on wall time.
 *
 * The full-size world (1,000 auras for an hour of game time, 72,000 steps)
 * is `node --expose-gc bench/sandbox/auras.mjs` (its figures: docs/security.md); here it
 * runs at 100 auras for a game minute, which shows the same flat memory.
 */

import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { World } from '../../runtime/world/world.js';
import type { WorldSnapshot } from '../../runtime/snapshot/world-snapshot.js';
import type { WorldEvent } from '../../runtime/events/events.js';
import { makeVm } from './sandbox-helpers.js';

/** The aura of issue 17 (spells/aura.spell). */
const AURA = fs.readFileSync(new URL('../../spells/aura.spell', import.meta.url), 'utf8');

const BREEDS = { breeds: [{ name: 'Priest', health: 100 }, { name: 'Villager', health: 50 }] };

/** A world at 20 Hz under the default budgets, with events collected by type. */
function world20Hz(source: string, options: { maxWorldHeap?: number } = {}): { world: World; events: Map<string, WorldEvent[]> } {
  const world = new World({ width: 200, height: 200, step: 0.05, aoiMoveEvents: false, ...options });
  world.loadBreeds(BREEDS);
  world.loadSpells(source, 'slices.spell');
  const events = new Map<string, WorldEvent[]>();
  world.on((e) => {
    if (e.type !== 'cast-error' && e.type !== 'cast-cancelled') return;
    const list = events.get(e.type) ?? [];
    list.push(e);
    events.set(e.type, list);
  });
  return { world, events };
}

function errors(events: Map<string, WorldEvent[]>): string[] {
  return [...(events.get('cast-error') ?? []), ...(events.get('cast-cancelled') ?? [])].map((e) => ('message' in e ? e.message : e.type));
}

describe('a cast that waits lives as long as the game', () => {
  it("issue 17's aura lives 72,000 steps (an hour of game time at 20 Hz) under the default budgets, holding the same memory throughout", () => {
    const { world, events } = world20Hz(AURA);
    const priest = world.spawn('Priest', 50, 50);
    const villager = world.spawn('Villager', 52, 50);
    world.setProperty(villager, 'health', 1);
    expect(world.cast('aura', priest).state).toBe('suspended');
    let heldAfterAMinute = 0;
    for (let step = 1; step <= 72_000; step++) {
      world.step();
      if (step === 1_200) heldAfterAMinute = world.heapHeld;
    }
    expect(errors(events)).toEqual([]);
    expect(world.waitingCasts).toBe(1);
    expect(world.property(villager, 'health')).toBe(50); // healed to its maximum long ago
    // Flat: the only growth is the pulse counter's digits in \`msg\` (and in \`n\`'s text): 2 more from pulse 1,200 to 72,000.
    expect(world.heapHeld - heldAfterAMinute).toBeLessThanOrEqual(2);
    // Before slices, the same aura died after 3,977 steps: "Out of fuel: the cast ran more than 1000000 instructions."
  }, 120_000);

  it('every resume starts a whole slice: fuel and output are whole again, the heap count starts from what the cast kept', () => {
    const { vm } = makeVm(
      'spell go() {\n  var keep = [1, 2, 3];\n  while (true) {\n    var i = 0;\n    while (i < 200) i += 1;\n    print "pulse";\n    pause();\n  }\n}\n',
      { fuel: 5_000, maxOutput: 10 },
    );
    const fiber = vm.cast('go', []);
    vm.resume(fiber); // the first slice also paid the call; every later one is the same
    const fuelLeft = fiber.fuel;
    expect(fuelLeft).toBeGreaterThan(0);
    for (let slice = 0; slice < 1_000; slice++) {
      expect(fiber.state).toBe('suspended');
      expect(fiber.fuel).toBe(fuelLeft);
      expect(fiber.outputUsed).toBe(6);
      // What it keeps across the wait: the list (4 + 3 elements), its two locals' values and the spell's closure.
      expect(fiber.retained).toBe(HEAP_OF_KEPT_LIST + HEAP_OF_SPELL_CLOSURE);
      vm.resume(fiber);
    }
    expect(fiber.state).toBe('suspended');
  });
});

/** The list `[1, 2, 3]` (vm/costs.ts: 4 + one per element) and the closure a cast runs (4, no upvalues). */
const HEAP_OF_KEPT_LIST = 4 + 3;
const HEAP_OF_SPELL_CLOSURE = 4;

describe('a loop that never waits stops on fuel, where it always did', () => {
  const RUNAWAY = 'var count = 0;\nvar late = 0;\nspell runaway(caster) {\n  while (true) { count += 1; }\n}\nspell lateRunaway(caster) {\n  wait(0.05);\n  while (true) { late += 1; }\n}\n';

  it('at the same instruction as before slices (71,428 iterations at the world default fuel), and after a wait with a whole slice again', () => {
    const { world, events } = world20Hz(RUNAWAY);
    const priest = world.spawn('Priest', 1, 1);
    const first = world.cast('runaway', priest);
    expect(first.state).toBe('failed');
    expect(first.error?.limit).toBe('fuel');
    expect(first.error?.message).toBe('Out of fuel: the cast ran more than 1000000 instructions.');
    expect(first.error?.line).toBe(4);
    const vm = world.spellVm('runaway')!;
    // 71,428: what the build before slices (c283a73) counts for this loop under the world's 1,000,000 fuel.
    expect(vm.getGlobal('count')).toBe(71_428);
    expect(world.cast('lateRunaway', priest).state).toBe('suspended');
    world.step();
    // A whole slice after the wait: one iteration more, as the resumed slice pays no call.
    expect(vm.getGlobal('late')).toBe(71_429);
    expect(errors(events)).toEqual(['Out of fuel: the cast ran more than 1000000 instructions.', 'Out of fuel: the cast ran more than 1000000 instructions.']);
  });
});

describe('a cast that hoards across waits stops on memory', () => {
  it('appending new text every tick ends with the memory message once it keeps more than its maxHeap', () => {
    const source =
      'spell hoard(caster) {\n  var block = "";\n  for (var i = 0; i < 1000; i += 1) block = block + "x";\n  var kept = [];\n  while (true) {\n    kept.append(block + str(len(kept)));\n    wait(0.05);\n  }\n}\n';
    const { world, events } = world20Hz(source);
    const priest = world.spawn('Priest', 1, 1);
    world.cast('hoard', priest);
    let steps = 0;
    while (world.waitingCasts > 0 && steps < 20_000) {
      world.step();
      steps++;
    }
    // ~1,000 characters a tick against the world's 16,000,000-unit maxHeap: about 16,000 ticks.
    expect(steps).toBeGreaterThan(15_000);
    expect(steps).toBeLessThan(17_000);
    const [error] = events.get('cast-error') ?? [];
    expect(error && 'message' in error ? error.message : '').toMatch(
      /^Out of memory: the cast holds more than 16000000 heap units \(\d+ kept across its last wait, the rest allocated since: list elements, string characters, objects\)\.$/,
    );
    expect(world.heapHeld).toBe(0);
  }, 60_000);

  it("many hoarders together meet the world's memory budget, with its message; the world goes on", () => {
    const source =
      'spell hoard(caster) {\n  var kept = [];\n  while (true) {\n    for (var i = 0; i < 500; i += 1) kept.append(i);\n    wait(0.05);\n  }\n}\n';
    const { world, events } = world20Hz(source, { maxWorldHeap: 1_000_000 });
    for (let i = 0; i < 10; i++) world.cast('hoard', world.spawn('Priest', 10 + i, 10));
    let steps = 0;
    while (world.waitingCasts === 10 && steps < 1_000) {
      world.step();
      steps++;
    }
    const failures = events.get('cast-error') ?? [];
    expect(failures.length).toBeGreaterThan(0);
    for (const e of failures) {
      expect('message' in e ? e.message : '').toBe("Out of memory: this world's waiting casts and entity fields would hold more than 1000000 heap units.");
    }
    // About 1,000,000 units over 10 casts of 500 elements a tick: some 200 ticks.
    expect(steps).toBeGreaterThan(150);
    expect(steps).toBeLessThan(250);
    expect(world.heapHeld).toBeLessThanOrEqual(1_000_000);
  });

  it('a cast keeps across a wait at most what its fuel left can pay to measure: past it, the memory error too', () => {
    const { vm } = makeVm('spell go() {\n  var kept = [];\n  while (true) {\n    for (var i = 0; i < 2000; i += 1) kept.append(i);\n    pause();\n  }\n}\n', {
      fuel: 100_000,
    });
    const fiber = vm.cast('go', []);
    let slices = 0;
    while (fiber.state === 'suspended') {
      vm.resume(fiber);
      slices++;
    }
    expect(fiber.error?.limit).toBe('heap');
    expect(fiber.error?.message).toMatch(/^Out of memory: the cast keeps more than its fuel left can pay to measure at a wait \(\d+ heap units counted when it ran out\)/);
    // 2,000 numbers a slice (~80,000 of its 100,000 fuel), and measuring them costs 1 fuel per 8: ~160,000 numbers fit in what is left.
    expect(slices).toBeGreaterThan(70);
    expect(slices).toBeLessThan(90);
  });
});

describe('a world of auras holds flat memory', () => {
  it('100 auras for a game minute (1,200 steps): every aura still pulsing, the world heap the same after the first second as at the end', () => {
    const { world, events } = world20Hz(AURA);
    for (let i = 0; i < 100; i++) world.cast('aura', world.spawn('Priest', (i * 13) % 200, (i * 29) % 200));
    const held: number[] = [];
    for (let step = 1; step <= 1_200; step++) {
      world.step();
      if (step % 20 === 0) held.push(world.heapHeld);
    }
    expect(errors(events)).toEqual([]);
    expect(world.waitingCasts).toBe(100);
    // Flat: the only growth is each aura's pulse counter gaining digits (2 texts, 2 more digits from pulse 20 to 1,200).
    expect(held[held.length - 1]! - held[0]!).toBeLessThanOrEqual(100 * 2 * 2);
    expect(held[held.length - 1]).toBeLessThan(100 * 1_000);
  }, 60_000);
});

describe('saves and slices', () => {
  it('a world saved mid-aura restores keeping the same memory, and goes on exactly as the world it was saved from', () => {
    const { world } = world20Hz(AURA);
    for (let i = 0; i < 5; i++) world.cast('aura', world.spawn('Priest', 20 + 30 * i, 50));
    for (let step = 0; step < 100; step++) world.step();
    const saved = JSON.parse(JSON.stringify(world.snapshot())) as WorldSnapshot;
    const fibers = saved.spellState.vms.flatMap((v) => v.state.fibers);
    expect(fibers.length).toBe(5);
    expect(fibers.every((f) => typeof f.retained === 'number' && f.retained > 0)).toBe(true);
    const restored = World.restore(saved);
    // The same kept values; only the stacks' spare capacity differs (a restored stack is made to measure, a running one came from the pool).
    const keptBy = (w: World): number[] => w.snapshot().spellState.vms.flatMap((v) => v.state.fibers.map((f) => f.retained ?? -1));
    expect(keptBy(restored)).toEqual(keptBy(world));
    expect(restored.heapHeld).toBeLessThanOrEqual(world.heapHeld);
    for (let step = 0; step < 500; step++) {
      world.step();
      restored.step();
    }
    expect(keptBy(restored)).toEqual(keptBy(world));
    expect(restored.waitingCasts).toBe(5);
    expect(JSON.stringify(restored.snapshot())).toBe(JSON.stringify(world.snapshot()));
  });

  it('a cantrip-world/2 save made before slices (its auras 77 steps from running out of fuel) loads, and its auras live on', () => {
    // Made by the build before slices (c283a73): four auras cast, then 3,900 steps. Its fibers carry the cumulative fuel
    // and heap counts of that time and no \`retained\`: what they keep is measured on restore.
    const old = JSON.parse(fs.readFileSync(new URL('./fixtures/aura-world-c283a73.json', import.meta.url), 'utf8')) as WorldSnapshot;
    expect(old.format).toBe('cantrip-world/2');
    const world = World.restore(old);
    const failures: string[] = [];
    world.on((e) => {
      if (e.type === 'cast-error') failures.push(e.message);
    });
    expect(world.waitingCasts).toBe(4);
    const held = world.heapHeld;
    expect(held).toBeGreaterThan(0);
    for (let step = 0; step < 12_000; step++) world.step();
    expect(failures).toEqual([]);
    expect(world.waitingCasts).toBe(4);
    expect(world.heapHeld - held).toBeLessThanOrEqual(4 * 2);
  }, 60_000);
});
