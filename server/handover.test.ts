/**
 * A model test of the hand-over protocol: two zones hand walkers back and
 * forth across their border while each walker's casts wait, over a bus that
 * drops, repeats and delays messages as fast-check decides, with a clock the
 * test moves. Whatever happens, once the messages are in and the timeouts
 * resolved, every entity is owned by exactly one zone, as its owner record
 * says; and every cast then finishes exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BreedData } from '../runtime/entities/breeds.js';
import { World } from '../runtime/world/world.js';
import { MemoryOwnershipStore } from './memory-ownership-store.js';
import { ZoneRuntime } from './zone.js';
import type { ZoneBus, ZoneMessage } from './zone-bus.js';
import { ZoneGrid } from './zone-grid.js';

const SPELLS = `
  spell channel(self, dt) {
    var id = self.id;
    for (var i = 0; i < 4; i += 1) wait(0.2);
    print "done " + str(id);
  }
`;
const BREEDS = { breeds: [{ name: 'Walker', health: 10, speed: 30, interest: 5 }] } as BreedData;

/** A bus the test delivers by hand: each message can be delivered, dropped or repeated. */
class ControlledBus implements ZoneBus {
  readonly queue: { to: string; message: ZoneMessage }[] = [];
  private readonly handlers = new Map<string, (message: ZoneMessage) => void>();
  async subscribe(zone: string, handler: (message: ZoneMessage) => void): Promise<void> {
    this.handlers.set(zone, handler);
  }
  async unsubscribe(zone: string): Promise<void> {
    this.handlers.delete(zone);
  }
  send(to: string, message: ZoneMessage): void {
    this.queue.push({ to, message: JSON.parse(JSON.stringify(message)) });
  }
  async close(): Promise<void> {}
  deliver(at: number, keep = false): void {
    const item = this.queue[at % this.queue.length]!;
    if (!keep) this.queue.splice(at % this.queue.length, 1);
    this.handlers.get(item.to)?.(item.message);
  }
  drop(at: number): void {
    this.queue.splice(at % this.queue.length, 1);
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

type Op = { kind: 'step' } | { kind: 'deliver' | 'drop' | 'repeat'; at: number } | { kind: 'wait'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Op>({ kind: 'step' }) },
  { weight: 4, arbitrary: fc.nat(50).map<Op>((at) => ({ kind: 'deliver', at })) },
  { weight: 1, arbitrary: fc.nat(50).map<Op>((at) => ({ kind: 'drop', at })) },
  { weight: 1, arbitrary: fc.nat(50).map<Op>((at) => ({ kind: 'repeat', at })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }).map<Op>((ms) => ({ kind: 'wait', ms })) },
);

async function setUp(walkers: number) {
  const grid = new ZoneGrid(100, 20, { columns: 2, rows: 1 }, 1);
  const store = new MemoryOwnershipStore();
  const bus = new ControlledBus();
  let clock = 0;
  const makeWorld = () => {
    const world = new World({ width: 100, height: 20, step: 0.05, policy: 'grow', aoiMoveEvents: false });
    world.loadSpells(SPELLS, 'walkers.spell');
    world.loadBreeds(BREEDS);
    return world;
  };
  const zones = grid.zones.map(
    (zone) => new ZoneRuntime({ grid, zone, store, bus, makeWorld, ghostRange: 5, handoverTimeoutMs: 300, saveEveryMs: 0, now: () => clock }),
  );
  for (const z of zones) await z.connect();
  const ids: number[] = [];
  for (let i = 0; i < walkers; i++) {
    const x = 44 + i * 3;
    const zone = zones[grid.zoneAt(x, 10).index]!;
    const id = await zone.spawn('Walker', x, 10);
    zone.world.setVelocity(id, i % 2 === 0 ? 30 : -30, 0);
    zone.world.cast('channel', id);
    ids.push(id);
  }
  const prints: string[] = [];
  for (const z of zones) z.onEvent((e) => e.type === 'print' && prints.push(e.text));
  return { grid, store, bus, zones, ids, prints, advance: (ms: number) => (clock += ms) };
}

describe('the hand-over protocol', () => {
  it('every entity is owned by exactly one zone, and every cast finishes once, under lost, repeated and late messages', async () => {
    const seen = { handovers: 0, aborted: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 80 }), async (ops) => {
        const t = await setUp(4);
        for (const o of ops) {
          if (o.kind === 'step') for (const z of t.zones) z.step();
          else if (o.kind === 'wait') t.advance(o.ms);
          else if (t.bus.queue.length > 0) {
            if (o.kind === 'drop') t.bus.drop(o.at);
            else t.bus.deliver(o.at, o.kind === 'repeat');
          }
          await settle();
        }
        // Quiet: every message in, every timeout resolved, no stepping.
        for (let round = 0; round < 50 && (t.bus.queue.length > 0 || t.zones.some((z) => z.handover.busy > 0)); round++) {
          while (t.bus.queue.length > 0) t.bus.deliver(0);
          await settle();
          t.advance(400);
          for (const z of t.zones) z.handover.checkTimeouts();
          await settle();
        }
        for (const id of t.ids) {
          const owners = t.zones.filter((z) => z.owns(id)).map((z) => z.id);
          expect(owners).toHaveLength(1);
          expect((await t.store.owner(id))?.zone).toBe(owners[0]);
        }
        // Then a reliable bus until every cast is done (they wait 0.8 s: 16 steps).
        for (let tick = 0; tick < 40; tick++) {
          for (const z of t.zones) z.step();
          for (let n = 0; n < 4; n++) {
            while (t.bus.queue.length > 0) t.bus.deliver(0);
            await settle();
          }
        }
        expect([...t.prints].sort()).toEqual(t.ids.map((id) => `done ${id}`).sort());
        for (const id of t.ids) expect(t.zones.filter((z) => z.owns(id))).toHaveLength(1);
        for (const z of t.zones) {
          seen.handovers += z.handover.handoversOut;
          seen.aborted += z.handover.aborted;
        }
      }),
      { numRuns: 40 },
    );
    // The runs did hand entities over, and some hand-overs were taken back after lost messages.
    expect(seen.handovers).toBeGreaterThan(40);
    expect(seen.aborted).toBeGreaterThan(0);
  });
});
