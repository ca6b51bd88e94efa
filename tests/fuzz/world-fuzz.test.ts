/**
 * Fuzz 5: random world operations — spawn, despawn, move, casts (damage,
 * spawning, despawning, moving, waiting, holding references) and ticks —
 * against a plain model. After every operation the pool, the handles and
 * the spatial index agree with the model: the same living entities at the
 * same places with the same health, stale references read `alive == false`,
 * `nearby` finds exactly what brute force finds, nearest first. The grid
 * and the axis lists must play the very same game.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BreedError, WorldError } from '../../runtime/errors.js';
import { VerifyError } from '../../vm/errors.js';
import type { WorldEvent } from '../../runtime/events/events.js';
import { World } from '../../runtime/world/world.js';
import { checkProperty, LEAKED_JS_ERROR } from './fuzz-settings.js';

const SIZE = 30;
const CAPACITY = 12;
const RADIUS = 6;

const SPELLS = `
spell hit(self, other) { damage(other, 10); }
spell summon(self) { print "summoned " + str(spawn("Rock", self.x + 1, self.y).id); }
spell vanish(self) { despawn(self); }
spell stepRight(self) { move(self, self.x + 1, self.y); }
spell fade(self) { wait(0.3); despawn(self); }
spell hold(self, other) { self.friend = other; }
spell check(self) { print "friend " + str(self.friend.alive); }
spell census(self) { var ids = []; for (e in nearby(self, ${RADIUS})) ids.append(e.id); print "census " + str(ids); }
`;

const BREEDS = {
  breeds: [
    { name: 'Troll', health: 25, interest: 3 },
    { name: 'Rock', health: 100 },
  ],
};

type Op =
  | { kind: 'spawn'; breed: 'Troll' | 'Rock'; x: number; y: number }
  | { kind: 'despawn'; pick: number }
  | { kind: 'move'; pick: number; x: number; y: number }
  | { kind: 'cast'; spell: 'hit' | 'summon' | 'vanish' | 'stepRight' | 'fade' | 'hold' | 'check'; pick: number; other: number }
  | { kind: 'tick'; dt: number };

const coord = fc.oneof(fc.integer({ min: -5, max: SIZE + 5 }), fc.integer({ min: 0, max: 2 * SIZE }).map((n) => n / 2));
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('spawn' as const), breed: fc.constantFrom('Troll' as const, 'Rock' as const), x: coord, y: coord }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('despawn' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), x: coord, y: coord }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('cast' as const),
      spell: fc.constantFrom('hit' as const, 'hit' as const, 'summon' as const, 'vanish' as const, 'stepRight' as const, 'fade' as const, 'hold' as const, 'check' as const),
      pick: fc.nat(),
      other: fc.nat(),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant('tick' as const), dt: fc.constantFrom(0, 0.05, 0.1, 0.25, 0.4) }), weight: 2 },
);

interface ModelEntity {
  x: number;
  y: number;
  health: number;
  friend: number | null;
}

/** A world with some of everything (entities, fields, a buff, a waiting cast, a despawn), as snapshot JSON. */
function sampleSnapshot(): unknown {
  const h = new Harness('grid');
  for (const o of [
    { kind: 'spawn', breed: 'Troll', x: 1, y: 1 },
    { kind: 'spawn', breed: 'Rock', x: 2, y: 2 },
    { kind: 'spawn', breed: 'Troll', x: 20, y: 20 },
    { kind: 'cast', spell: 'hold', pick: 0, other: 1 },
    { kind: 'cast', spell: 'hit', pick: 0, other: 2 },
    { kind: 'tick', dt: 0.1 },
    { kind: 'despawn', pick: 1 },
  ] as Op[]) {
    h.apply(o);
  }
  return JSON.parse(JSON.stringify(h.world.snapshot())) as unknown;
}

/** Set or delete one value anywhere inside JSON data (in place). */
function tamper(data: unknown, [pick, remove, value]: [number, boolean, unknown]): void {
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    containers.push(node as Record<string, unknown>);
    for (const child of Object.values(node)) visit(child);
  };
  visit(data);
  const target = containers[pick % containers.length]!;
  if (Array.isArray(target)) {
    if (target.length === 0) return;
    if (remove) target.splice(pick % target.length, 1);
    else target[pick % target.length] = value;
  } else {
    const keys = Object.keys(target);
    if (keys.length === 0) return;
    if (remove) delete target[keys[pick % keys.length]!];
    else target[keys[pick % keys.length]!] = value;
  }
}

const clamp = (v: number): number => Math.min(SIZE, Math.max(0, v));

/** The model and the world side by side; `apply` runs one op on both and `check` compares them. */
class Harness {
  readonly world: World;
  readonly live = new Map<number, ModelEntity>();
  readonly everSpawned: number[] = [];
  readonly fades: { id: number; wakeAt: number }[] = [];
  readonly events: WorldEvent[] = [];
  private printed: string[] = [];

  constructor(partition: 'grid' | 'axis') {
    this.world = new World({ width: SIZE, height: SIZE, capacity: CAPACITY, partition, cellSize: 4, seed: 1, aoiMoveEvents: false });
    this.world.loadSpells(SPELLS, 'world-fuzz.spell');
    this.world.loadBreeds(BREEDS);
    this.world.on((e) => {
      this.events.push(e);
      if (e.type === 'print') this.printed.push(e.text);
      if (e.type === 'cast-error' && LEAKED_JS_ERROR.test(e.message)) throw new Error(`leaked: ${e.message}`);
    });
  }

  private pick(n: number): number | undefined {
    return this.everSpawned.length === 0 ? undefined : this.everSpawned[n % this.everSpawned.length];
  }

  private takePrinted(): string[] {
    this.world.flush();
    const out = this.printed;
    this.printed = [];
    return out;
  }

  private kill(id: number): void {
    this.live.delete(id);
    // Its own waiting fade is cancelled with it (a cast-cancelled event), not left to wake.
    for (let i = this.fades.length - 1; i >= 0; i--) if (this.fades[i]!.id === id) this.fades.splice(i, 1);
  }

  apply(o: Op): void {
    const w = this.world;
    switch (o.kind) {
      case 'spawn': {
        if (this.live.size === CAPACITY) {
          expect(() => w.spawn(o.breed, o.x, o.y)).toThrow(WorldError);
          return;
        }
        const id = w.spawn(o.breed, o.x, o.y);
        expect(this.everSpawned).not.toContain(id);
        this.everSpawned.push(id);
        this.live.set(id, { x: clamp(o.x), y: clamp(o.y), health: o.breed === 'Troll' ? 25 : 100, friend: null });
        return;
      }
      case 'tick': {
        w.tick(o.dt);
        const now = w.time + w.options.step * 1e-6;
        for (let i = this.fades.findIndex((f) => f.wakeAt <= now); i >= 0; i = this.fades.findIndex((f) => f.wakeAt <= now)) {
          const [fade] = this.fades.splice(i, 1);
          this.kill(fade!.id); // and its other fades, cancelled with it
        }
        return;
      }
    }
    const id = this.pick(o.pick);
    if (id === undefined) return;
    const self = this.live.get(id);
    if (o.kind === 'despawn') {
      expect(w.despawn(id)).toBe(self !== undefined);
      this.kill(id);
      return;
    }
    if (o.kind === 'move') {
      if (!self) {
        expect(() => w.setProperty(id, 'x', o.x)).toThrow(WorldError);
        return;
      }
      w.setProperty(id, 'x', o.x);
      w.setProperty(id, 'y', o.y);
      self.x = clamp(o.x);
      self.y = clamp(o.y);
      return;
    }
    // Only spells with a target get one: the world refuses a dead target before the spell runs.
    const needsTarget = o.spell === 'hit' || o.spell === 'hold';
    const otherId = needsTarget ? this.pick(o.other)! : null;
    const other = otherId === null ? undefined : this.live.get(otherId);
    if (!self || (needsTarget && !other)) {
      expect(() => w.cast(o.spell, id, otherId)).toThrow(WorldError);
      return;
    }
    const result = w.cast(o.spell, id, otherId);
    const printed = this.takePrinted();
    switch (o.spell) {
      case 'hit':
        expect(result.state).toBe('done');
        other!.health = Math.max(0, other!.health - 10);
        if (other!.health === 0) this.kill(otherId!);
        break;
      case 'summon':
        if (this.live.size === CAPACITY) {
          expect(result.state).toBe('failed');
          expect(result.error!.message).toMatch(/full/);
        } else {
          expect(result.state).toBe('done');
          const summoned = Number(/^summoned (\d+)$/.exec(printed[0] ?? '')?.[1]);
          this.everSpawned.push(summoned);
          this.live.set(summoned, { x: clamp(self.x + 1), y: self.y, health: 100, friend: null });
        }
        break;
      case 'vanish':
        expect(result.state).toBe('done');
        this.kill(id);
        break;
      case 'stepRight':
        expect(result.state).toBe('done');
        self.x = clamp(self.x + 1);
        break;
      case 'fade':
        expect(result.state).toBe('suspended');
        this.fades.push({ id, wakeAt: w.time + 0.3 });
        break;
      case 'hold':
        expect(result.state).toBe('done');
        self.friend = otherId;
        break;
      case 'check':
        if (self.friend === null) {
          expect(result.error?.message).toBe("Undefined property 'friend'.");
        } else {
          expect(result.error).toBeNull();
          expect(printed).toEqual([`friend ${this.live.has(self.friend)}`]);
        }
        break;
    }
  }

  check(): void {
    const w = this.world;
    w.flush();
    const views = w.entities();
    expect(new Set(views.map((e) => e.id))).toEqual(new Set(this.live.keys()));
    expect(w.pool.count).toBe(this.live.size);
    for (const view of views) {
      const m = this.live.get(view.id)!;
      expect([view.x, view.y, view.health]).toEqual([m.x, m.y, m.health]);
    }
    for (const id of this.everSpawned) {
      expect(w.isAlive(id)).toBe(this.live.has(id));
      if (!this.live.has(id)) expect(w.entity(id)).toBeNull();
    }
    expect(w.waitingCasts).toBe(this.fades.length);
    // The spatial index against brute force over the model, from one living entity.
    const [probe] = this.live.keys();
    if (probe === undefined) return;
    w.cast('census', probe);
    const printed = this.takePrinted();
    const found = JSON.parse(/^census (.*)$/.exec(printed[0] ?? '')?.[1] ?? 'null') as number[];
    const p = this.live.get(probe)!;
    const d2 = (m: ModelEntity): number => (m.x - p.x) * (m.x - p.x) + (m.y - p.y) * (m.y - p.y);
    const expected = [...this.live]
      .filter(([, m]) => d2(m) <= RADIUS * RADIUS)
      .sort(([ia, a], [ib, b]) => d2(a) - d2(b) || ia - ib)
      .map(([i]) => i);
    expect(found).toEqual(expected);
  }
}

describe('random world operations against a model', () => {
  it('pool, handles, fields and the spatial index never disagree with the model (grid and axis lists)', () => {
    checkProperty(
      'world/model',
      fc.property(fc.constantFrom('grid' as const, 'axis' as const), fc.array(op, { maxLength: 80 }), (partition, ops) => {
        const h = new Harness(partition);
        for (const o of ops) {
          h.apply(o);
          h.check();
        }
      }),
      500,
    );
  });

  it('the grid and the axis lists play the same game, event for event', () => {
    checkProperty(
      'world/grid-equals-axis',
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const grid = new Harness('grid');
        const axis = new Harness('axis');
        for (const o of ops) {
          grid.apply(o);
          axis.apply(o);
        }
        grid.world.flush();
        axis.world.flush();
        expect(axis.events).toEqual(grid.events);
        expect(axis.world.entities()).toEqual(grid.world.entities());
      }),
      300,
    );
  });

  // Regression: a tampered snapshot (an entity entry removed, a pool link or generation changed) was
  // accepted by World.restore and broke a later step with a raw JS error.
  it('a tampered snapshot is refused with a WorldError, or restores to a world that runs', () => {
    const snapshot = sampleSnapshot();
    const leaf = fc.oneof(fc.constantFrom(0, -1, 1, 2, 0.5, 1e9, -1e9, 2 ** 31, 2 ** 32, 'x', '', true, false, null), fc.integer(), fc.double());
    checkProperty(
      'world/tampered-snapshot',
      fc.property(fc.array(fc.tuple(fc.nat(), fc.boolean(), leaf), { minLength: 1, maxLength: 3 }), (edits) => {
        const data = structuredClone(snapshot);
        for (const edit of edits) tamper(data, edit);
        let world: World;
        try {
          world = World.restore(data as ReturnType<World['snapshot']>);
        } catch (error) {
          if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) return;
          throw error;
        }
        const refused = (act: () => void): void => {
          try {
            act();
          } catch (error) {
            if (!(error instanceof WorldError)) throw error;
          }
        };
        for (let i = 0; i < 4; i++) world.tick(0.1);
        for (let i = 0; i < 8; i++) refused(() => world.spawn(i % 2 ? 'Troll' : 'Rock', i, i));
        for (const e of world.entities().slice(0, 3)) world.despawn(e.id);
        for (const e of world.entities()) refused(() => world.cast('stepRight', e.id));
        for (let i = 0; i < 4; i++) world.tick(0.1);
        world.snapshot();
      }),
      800,
    );
  });

  it('a snapshot taken anywhere restores to a world that goes on identically', () => {
    checkProperty(
      'world/snapshot',
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(fc.constantFrom(0.1, 0.2), { minLength: 1, maxLength: 5 }), (ops, ticks) => {
        const h = new Harness('grid');
        for (const o of ops) if (!(o.kind === 'cast' && o.spell === 'fade')) h.apply(o);
        const copy = World.restore(JSON.parse(JSON.stringify(h.world.snapshot())) as ReturnType<World['snapshot']>);
        for (const dt of ticks) {
          h.world.tick(dt);
          copy.tick(dt);
        }
        expect(copy.entities()).toEqual(h.world.entities());
      }),
      200,
    );
  });
});
