/**
 * The proof that snapshots keep spells in flight: run N ticks straight; run
 * k ticks, snapshot, JSON round trip, restore into a fresh world, run N − k
 * more. The events after tick k are identical, for every k.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../events/events.js';
import { parseScenario, startScenario, type ScenarioFiles } from '../scenario/scenario.js';
import { WorldError } from '../errors.js';
import { World } from '../world/world.js';

const SCENARIOS = resolve(dirname(fileURLToPath(import.meta.url)), '../../spells/scenarios');

function filesFor(path: string): ScenarioFiles {
  const base = dirname(path);
  return { readText: (p) => readFileSync(resolve(base, p), 'utf8'), readBytes: (p) => new Uint8Array(readFileSync(resolve(base, p))) };
}

function scenarioEvents(path: string, ticks: number, snapshotAt: number | null): { events: WorldEvent[]; waitingAtSnapshot: number } {
  const scenario = parseScenario(readFileSync(path, 'utf8'));
  const run = startScenario(scenario, filesFor(path));
  let events: WorldEvent[] = [];
  run.world.on((e) => events.push(e));
  run.world.flush();
  let waitingAtSnapshot = 0;
  for (let t = 0; t < ticks; t++) {
    if (t === snapshotAt) {
      waitingAtSnapshot = run.world.waitingCasts;
      const restored = World.restore(JSON.parse(JSON.stringify(run.world.snapshot())));
      events = [];
      restored.on((e) => events.push(e));
      run.continueOn(restored);
    } else if (snapshotAt !== null && t === 0) {
      // nothing: events before the snapshot are not compared
    }
    if (t === snapshotAt || snapshotAt === null || t > snapshotAt) run.step();
    else {
      run.step();
      if (t === snapshotAt! - 1) events = [];
    }
  }
  run.world.flush();
  return { events, waitingAtSnapshot };
}

describe('snapshot + JSON + restore in the middle of every scenario continues exactly', () => {
  for (const file of readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'))) {
    it(file, () => {
      const path = join(SCENARIOS, file);
      const n = Math.min(parseScenario(readFileSync(path, 'utf8')).ticks ?? 40, 40);
      let inFlight = 0;
      for (let k = 1; k < n; k++) {
        const straight = scenarioEvents(path, n, null).events.filter((e) => e.tick > k);
        const { events, waitingAtSnapshot } = scenarioEvents(path, n, k);
        inFlight += waitingAtSnapshot;
        expect(events.filter((e) => e.tick > k), `${file}, snapshot after tick ${k}`).toEqual(straight);
      }
      expect(inFlight, 'some snapshot was taken with casts waiting').toBeGreaterThan(0);
    }, 240_000);
  }
});

const BREEDS = { breeds: [{ name: 'Mage', health: 30 }, { name: 'Dummy', health: 40 }] };
const SPELLS = `
var casts = 0;
class Ledger {
  init() { this.entries = []; }
  add(x) { this.entries.append(x); return len(this.entries); }
}
fun counter() { var n = 0; fun next() { n += 1; return n; } return next; }
fun inner(target, next, list, ledger) {
  wait(0.3);                                   // suspended two calls deep
  damage(target, next() + len(list));
  ledger.add(list);
  wait(0.2);
  return next();
}
spell storm(caster, target) {
  casts += 1;
  var next = counter();
  var list = [1, 2, 3];
  list.append(list);                           // a cycle
  var ledger = Ledger();
  var tally = {"fire": 1};                     // a map, keyed by an entity too
  tally[target] = 2;
  var shout = "storm".upper;                   // a bound built-in method
  var r = inner(target, next, list, ledger);
  tally["fire"] += r;
  print \`\${shout()} \${r} \${ledger.add(casts)} alive \${target.alive} tally \${tally["fire"]} \${tally[target]} \${len(tally)}\`;
}
spell selfDestruct(caster, target) { wait(0.6); damage(caster, 999); wait(0.2); print "never"; }
`;

function mageWorld(): { world: World; mage: number; dummy: number } {
  const world = new World({ width: 20, height: 20, seed: 4 });
  world.loadSpells(SPELLS, 'storm.spell');
  world.loadBreeds(BREEDS);
  return { world, mage: world.spawn('Mage', 2, 2), dummy: world.spawn('Dummy', 3, 3) };
}

function run(k: number | null): WorldEvent[] {
  let { world, mage, dummy } = mageWorld();
  let events: WorldEvent[] = [];
  world.on((e) => events.push(e));
  world.cast('storm', mage, dummy);
  world.cast('storm', dummy, mage);
  world.cast('selfDestruct', dummy, mage);
  world.flush();
  for (let t = 0; t < 12; t++) {
    if (t === 4) world.despawn(mage); // a target (and a caster) dies during the wait
    if (t === k) {
      world = World.restore(JSON.parse(JSON.stringify(world.snapshot())));
      events = [];
      world.on((e) => events.push(e));
    }
    world.step();
    if (k !== null && t < k) events = [];
  }
  void mage;
  void dummy;
  return events;
}

describe('casts in wait, in nested calls, holding closures, lists, maps, bound methods and instances, whose caster or target died', () => {
  it('continue identically after a snapshot at any tick', () => {
    const straight = run(null);
    expect(straight.filter((e) => e.type === 'damage').length, JSON.stringify(straight.filter((e) => e.type !== 'aoi'))).toBeGreaterThan(2);
    for (let k = 0; k < 12; k++) {
      // Events queued before the snapshot (tick ≤ k: the despawn at t = 4) are delivered by the restored world too.
      expect(run(k).filter((e) => e.tick > k), `snapshot before tick ${k + 1}`).toEqual(straight.filter((e) => e.tick > k));
    }
  });
});

describe('events queued but not yet delivered when the snapshot is taken', () => {
  // Found by tests/fuzz/snapshot-continuity-fuzz: a cast (or spawn) between steps queues its events until the
  // next flush; a snapshot taken before it used to drop them, so the restored world never reported them.
  function castThenSave(): { events: WorldEvent[]; restoredEvents: WorldEvent[] } {
    const { world, mage, dummy } = mageWorld();
    world.flush();
    world.cast('selfDestruct', mage, dummy);
    world.spawn('Dummy', 5, 5);
    const restored = World.restore(JSON.parse(JSON.stringify(world.snapshot())));
    const events: WorldEvent[] = [];
    const restoredEvents: WorldEvent[] = [];
    world.on((e) => events.push(e));
    restored.on((e) => restoredEvents.push(e));
    for (let t = 0; t < 10; t++) {
      world.step();
      restored.step();
    }
    return { events, restoredEvents };
  }

  it('are delivered by the restored world at its first flush, as the original delivers them', () => {
    const { events, restoredEvents } = castThenSave();
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(['cast', 'spawn']);
    expect(restoredEvents).toEqual(events);
  });

  it('are checked on restore: something that is not a world event is refused with a WorldError', () => {
    const { world } = mageWorld();
    world.spawn('Dummy', 5, 5);
    const data = JSON.parse(JSON.stringify(world.snapshot()));
    for (const bad of [{ type: 'nonsense', tick: 0 }, { type: 'print', tick: 'x' }, 'print', [], { type: 'print', tick: 0, text: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } } }]) {
      expect(() => World.restore({ ...data, queued: [bad] }), JSON.stringify(bad)).toThrow(WorldError);
    }
    expect(() => World.restore({ ...data, queued: {} })).toThrow(WorldError);
    expect(() => World.restore({ ...data, dropped: { events: -1, casts: 0 } })).toThrow(WorldError);
    expect(World.restore({ ...data, queued: undefined, dropped: undefined }).snapshot().queued).toEqual([]);
  });
});
