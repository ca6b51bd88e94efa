/**
 * Handing an entity over between worlds (exportEntity / releaseEntity /
 * importEntity): its casts in flight finish exactly once, where it went, with
 * the results they would have had if it had stayed — whatever the two clocks say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BreedData } from '../entities/breeds.js';
import type { WorldEvent } from '../events/events.js';
import { World } from './world.js';

const SPELLS = `
  var total = 0;
  spell channel(self, dt) {
    // A cast that waits several times, keeping a list, a closure and a reference to its caster.
    var hits = [];
    var tag = self.id;
    fun note(v) { hits.append(v); }
    for (var i = 0; i < 3; i += 1) {
      wait(0.25);
      note(self.health + i);
    }
    print "done " + str(tag) + " " + str(len(hits)) + " " + str(hits[2]);
    self.finished = self.finished + 1;
  }
  spell rest(self, dt) {}
`;

const BREEDS = { breeds: [{ name: 'Mage', health: 30, speed: 4, attributes: { finished: 0 }, spells: { tick: 'rest' } }] } as BreedData;

function makeWorld(seed: number, firstId: number): { world: World; prints: string[]; events: WorldEvent[] } {
  const world = new World({ width: 100, height: 100, seed, step: 0.05 });
  world.loadSpells(SPELLS, 'handover.spell');
  world.loadBreeds(BREEDS);
  world.startIdsAt(firstId);
  const prints: string[] = [];
  const events: WorldEvent[] = [];
  world.on((e) => {
    events.push(e);
    if (e.type === 'print') prints.push(e.text);
  });
  return { world, prints, events };
}

describe('World.exportEntity / releaseEntity / importEntity', () => {
  it('moves an entity with its waiting casts; they finish once, on the other side, on time', () => {
    const a = makeWorld(1, 1);
    const b = makeWorld(2, 1_000_001);
    // Clocks that disagree: b is 37 steps ahead.
    for (let i = 0; i < 37; i++) b.world.step();
    const mage = a.world.spawn('Mage', 10, 10);
    a.world.setVelocity(mage, 1, 0);
    a.world.cast('channel', mage);
    a.world.cast('channel', mage);
    a.world.step();
    const exported = JSON.parse(JSON.stringify(a.world.exportEntity(mage)));
    expect(exported.casts).toHaveLength(2);
    expect(a.world.releaseEntity(mage)).toBe(true);
    expect(b.world.importEntity(exported)).toBe(mage);
    a.world.flush();

    expect(a.world.isAlive(mage)).toBe(false);
    expect(a.events.filter((e) => e.type === 'despawn').map((e) => e.type === 'despawn' && e.reason)).toEqual(['handed-over']);
    expect(a.events.some((e) => e.type === 'cast-cancelled')).toBe(false);
    expect(b.world.waitingCasts).toBe(2);
    expect(b.world.entity(mage)).toMatchObject({ breed: 'Mage', health: 30, vx: 1 });

    // Three waits of 0.25 s from the cast: 15 steps in all, one already run in a.
    for (let i = 0; i < 13; i++) b.world.step();
    expect(b.prints).toEqual([]);
    b.world.step();
    expect(b.prints).toEqual([`done ${mage} 3 32`, `done ${mage} 3 32`]);
    expect(b.world.property(mage, 'finished')).toBe(2);
    for (let i = 0; i < 20; i++) b.world.step();
    expect(b.prints).toHaveLength(2);
    expect(a.prints).toEqual([]);
  });

  it('refuses what does not fit, leaving nothing half-built', () => {
    const a = makeWorld(1, 1);
    const b = makeWorld(1, 1);
    const mage = a.world.spawn('Mage', 10, 10);
    b.world.spawn('Mage', 5, 5);
    a.world.cast('channel', mage);
    const exported = a.world.exportEntity(mage);
    expect(() => b.world.importEntity(exported)).toThrow(`Entity #${mage} is already in this world.`);
    const c = new World({ width: 100, height: 100 });
    c.loadSpells('spell rest(self, dt) {}', 'other.spell');
    c.loadBreeds(BREEDS);
    c.startIdsAt(500);
    expect(() => c.importEntity(exported)).toThrow('which this world has not loaded');
    expect(c.entities()).toEqual([]);
    expect(c.waitingCasts).toBe(0);
    expect(() => c.importEntity({ ...exported, x: Number.NaN })).toThrow('x must be a finite number');
    // A cast on a module a reload replaced cannot travel: the entity stays until it ends.
    a.world.loadSpells(SPELLS.replace('done ', 'finished '), 'handover.spell', { inFlight: 'keep' });
    expect(() => a.world.exportEntity(mage)).toThrow('waits in a cast of a module a reload replaced');
    expect(a.world.isAlive(mage)).toBe(true);
  });

  it('property: a round trip at any step finishes every cast exactly once, with the results of a world that kept the entity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        (moveAt, skew, casts, twice) => {
          const stay = makeWorld(5, 1);
          const a = makeWorld(5, 1);
          const b = makeWorld(6, 1_000_001);
          for (let i = 0; i < skew; i++) b.world.step();
          const ids = [stay, a].map(({ world }) => {
            const id = world.spawn('Mage', 20, 20);
            for (let c = 0; c < casts; c++) world.cast('channel', id);
            return id;
          });
          const id = ids[1]!;
          for (let i = 0; i < 20; i++) {
            stay.world.step();
            if (i === moveAt) {
              const out = a.world.exportEntity(id);
              a.world.releaseEntity(id);
              b.world.importEntity(JSON.parse(JSON.stringify(out)));
              if (twice) {
                const back = b.world.exportEntity(id);
                b.world.releaseEntity(id);
                a.world.importEntity(back);
              }
            }
            a.world.step();
            b.world.step();
          }
          a.world.flush();
          const moved = [...a.prints, ...b.prints];
          expect(moved).toEqual(stay.prints);
          expect(moved).toHaveLength(casts);
          const home = twice ? a.world : b.world;
          expect(home.property(id, 'finished')).toBe(casts);
          expect(a.world.waitingCasts + b.world.waitingCasts).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('mirrors (ghosts)', () => {
  const GHOST_SPELLS = `
    spell rest(self, dt) { self.ticks = self.ticks + 1; }
    spell blast(self, target) { damage(target, 7); }
    spell look(self, target) { var n = nearest(self, 50); if (n != nil) print n.id; }
  `;
  const GHOST_BREEDS = { breeds: [{ name: 'Mage', health: 30, interest: 20, attributes: { ticks: 0 }, spells: { tick: 'rest' } }] } as BreedData;

  it('queries and the AOI see a mirror; it runs no tick spell, does not die, and the damage dealt to it is reported', () => {
    const world = new World({ width: 100, height: 100, step: 0.1 });
    world.loadSpells(GHOST_SPELLS, 'ghosts.spell');
    world.loadBreeds(GHOST_BREEDS);
    const events: WorldEvent[] = [];
    world.on((e) => events.push(e));
    const me = world.spawn('Mage', 10, 10);
    world.spawnMirror({ id: 9_000_001, breed: 'Mage', x: 15, y: 10, health: 5 });
    world.step();
    expect(world.isMirror(9_000_001)).toBe(true);
    expect(world.isMirror(me)).toBe(false);
    expect(world.nearby(10, 10, 10)).toEqual([me, 9_000_001]);
    expect(events.filter((e) => e.type === 'aoi' && e.kind === 'enter').map((e) => e.type === 'aoi' && [e.observer, e.subject])).toEqual([[me, 9_000_001]]);
    expect(world.property(9_000_001, 'ticks')).toBe(0);
    expect(world.property(me, 'ticks')).toBe(1);
    expect(events.some((e) => e.type === 'spawn' && e.entity === 9_000_001)).toBe(false);

    world.cast('look', me);
    world.flush();
    expect(events.filter((e) => e.type === 'print').map((e) => e.type === 'print' && e.text)).toEqual(['9000001']);
    world.cast('blast', me, 9_000_001);
    expect(world.isAlive(9_000_001)).toBe(true);
    expect(world.takeMirrorEffects()).toEqual([{ kind: 'damage', entity: 9_000_001, amount: 5, by: me }]);
    expect(world.takeMirrorEffects()).toEqual([]);
    expect(() => world.cast('blast', 9_000_001, me)).toThrow('belongs to another zone');
    expect(() => world.exportEntity(9_000_001)).toThrow('is a mirror');

    expect(() => world.snapshot()).toThrow('remove them before a snapshot');
    world.updateMirror(9_000_001, 80, 80, 30);
    world.step();
    expect(world.nearby(10, 10, 10)).toEqual([me]);
    expect(events.some((e) => e.type === 'aoi' && e.kind === 'leave' && e.subject === 9_000_001)).toBe(true);
    world.removeMirror(9_000_001);
    expect(world.isAlive(9_000_001)).toBe(false);
    expect(events.some((e) => e.type === 'despawn')).toBe(false);
    expect(() => world.updateMirror(9_000_001, 1, 1, 1)).toThrow('is not a mirror in this world');
  });

  it('an entity imported with an id above the world\'s own still runs its tick spell', () => {
    const world = new World({ width: 100, height: 100, step: 0.1 });
    world.loadSpells(GHOST_SPELLS, 'ghosts.spell');
    world.loadBreeds(GHOST_BREEDS);
    const other = new World({ width: 100, height: 100, step: 0.1 });
    other.loadSpells(GHOST_SPELLS, 'ghosts.spell');
    other.loadBreeds(GHOST_BREEDS);
    other.startIdsAt(1_000_000);
    const far = other.spawn('Mage', 1, 1);
    world.importEntity(other.exportEntity(far));
    world.step();
    expect(world.property(far, 'ticks')).toBe(1);
    // A snapshot of a world holding an imported id restores.
    const restored = World.restore(JSON.parse(JSON.stringify(world.snapshot())));
    expect(restored.entity(far)?.breed).toBe('Mage');
  });
});
