/**
 * Bytes per client per tick: 300 players' avatars among wanderers, dense
 * enough that ~80 entities are in each avatar's view, everything moving.
 * Each client's views are built as a zone room builds them
 * (server/client-view.ts, from the AOI) and encoded as Colyseus frames them
 * (msgpack, ROOM_DATA), in the plain encoding and the compact one
 * (`compact: true`: handles and deltas). Beside them, the cost of sending
 * every client the whole zone's moves instead (no AOI filter). Target
 * (issue 21): ≤ 400 bytes per client per tick.
 */

import { Protocol, getMessageBytes } from '@colyseus/core';
import { World } from '../../index.js';
import { ClientView } from '../../server/client-view.js';
import { EntityLookup } from '../../server/entity-lookup.js';
import { ViewRouter } from '../../server/view-router.js';
import type { MovedEntity, ViewMessage } from '../../server/protocol.js';
import { seededRandom } from '../spatial/table.js';
import { WANDERER_SPELLS, ZONE_BREEDS } from './bench-world.js';

export interface ViewBytesRow {
  readonly encoding: string;
  readonly clients: number;
  readonly meanInView: number;
  /** Bytes a client receives a tick, framing included. */
  readonly bytesPerClientTick: number;
  /** Milliseconds a tick to build and encode every client's message. */
  readonly msPerTick: number;
}

const frame = (type: string, message: unknown): number => getMessageBytes.raw(Protocol.ROOM_DATA, type, message).length;

export function viewBytes(clients: number, wanderers: number, side: number, ticks: number): ViewBytesRow[] {
  const world = new World({ width: side, height: side, step: 0.05, capacity: clients + wanderers, partition: 'grid', cellSize: 8, aoiMoveEvents: false, maxEventsPerStep: 1_000_000 });
  world.loadSpells(WANDERER_SPELLS, 'wanderers.spell');
  world.loadBreeds(ZONE_BREEDS);
  const random = seededRandom(5);
  for (let i = 0; i < wanderers; i++) {
    const id = world.spawn('Wanderer', random() * side, random() * side);
    const angle = random() * Math.PI * 2;
    world.setVelocity(id, Math.cos(angle) * 2, Math.sin(angle) * 2);
  }
  const avatars: number[] = [];
  for (let i = 0; i < clients; i++) {
    const id = world.spawn('Pilgrim', random() * side, random() * side);
    const angle = random() * Math.PI * 2;
    world.setVelocity(id, Math.cos(angle) * 4, Math.sin(angle) * 4);
    avatars.push(id);
  }
  world.step();
  const plain = avatars.map((id) => new ClientView(world, id, false));
  const compact = avatars.map((id) => new ClientView(world, id, true));
  const router = new ViewRouter();
  for (const v of [...plain, ...compact]) router.add(v);
  world.on((event) => router.route(event));
  const totals = { plain: { bytes: 0, ms: 0 }, compact: { bytes: 0, ms: 0 }, whole: { bytes: 0, ms: 0 } };
  let inView = 0;
  const last = new Map<number, [number, number]>();
  for (let t = 0; t < ticks + 10; t++) {
    world.step();
    const measured = t >= 10;
    for (const [name, views] of [['plain', plain], ['compact', compact]] as const) {
      const start = performance.now();
      let bytes = 0;
      const lookup = new EntityLookup(world);
      for (const v of views) {
        const { view, events } = v.flush(world.steps, lookup);
        if (view !== null) bytes += frame('view', view);
        if (events.length > 0) bytes += frame('events', events);
      }
      if (measured) {
        totals[name].bytes += bytes;
        totals[name].ms += performance.now() - start;
      }
    }
    // Without the AOI: every client gets every move in the zone (one message, built once, sent to each).
    const start = performance.now();
    const m: MovedEntity[] = [];
    for (const e of world.entities()) {
      const x = Math.round(e.x * 100) / 100;
      const y = Math.round(e.y * 100) / 100;
      const before = last.get(e.id);
      if (before === undefined || before[0] !== x || before[1] !== y) m.push([String(e.id), x, y]);
      last.set(e.id, [x, y]);
    }
    const whole: ViewMessage = { t: world.steps, m };
    const wholeBytes = frame('view', whole);
    if (measured) {
      totals.whole.bytes += wholeBytes * clients;
      totals.whole.ms += performance.now() - start;
      for (const id of avatars) inView += world.nearby(world.stat(id, 'x'), world.stat(id, 'y'), 10).length - 1;
    }
  }
  const meanInView = inView / (ticks * clients);
  const row = (encoding: string, total: { bytes: number; ms: number }): ViewBytesRow => ({
    encoding,
    clients,
    meanInView,
    bytesPerClientTick: total.bytes / (ticks * clients),
    msPerTick: total.ms / ticks,
  });
  return [row('AOI, plain (m)', totals.plain), row('AOI, compact (c): the default of the page and the SDK example', totals.compact), row('whole zone, plain', totals.whole)];
}
