/**
 * Players against a served world, through the real Colyseus SDK: joining
 * with an allowed breed, views from the AOI that see across a zone border,
 * every kind of bad message answered with an error, and an avatar walking
 * into the next zone with its client following (seat reservation, same id).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Inbox } from './room-inbox.test-helper.js';
import { freePort } from './throwaway-redis.js';
import { MESSAGE, type ErrorMessage, type HandoverMessage, type StatusResponse, type ViewMessage, type WelcomeMessage, type ZonesResponse } from './protocol.js';
import { startInProcess, type InProcessServer } from './serve-in-process.js';
import { tempDir } from '../tests/temp-dir.test-helper.js';

const SPELLS = new URL('../spells/', import.meta.url).pathname;

/** Ids a client has seen enter its view and not leave. */
function inView(inbox: Inbox): Set<string> {
  const seen = new Set<string>();
  for (const { type, message } of inbox.all) {
    if (type === MESSAGE.welcome) seen.clear();
    if (type !== MESSAGE.view) continue;
    const v = message as ViewMessage;
    for (const [id] of v.e ?? []) seen.add(id);
    for (const id of v.l ?? []) seen.delete(id);
  }
  return seen;
}

describe('a served world, through the Colyseus SDK', () => {
  let served: InProcessServer;
  let port: number;
  const rooms: Room[] = [];

  beforeAll(async () => {
    const dir = tempDir('cantrip-serve-');
    const scenario = join(dir, 'world.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        breeds: join(SPELLS, 'zone-breeds.json'),
        spells: [join(SPELLS, 'wanderers.spell')],
        world: { width: 60, height: 40, partition: 'grid', cellSize: 4, step: 0.05 },
        entities: [{ name: 'w1', breed: 'Wanderer', x: 45, y: 35 }],
        players: { breeds: ['Pilgrim'], spawn: { x: 10, y: 10 } },
      }),
    );
    port = await freePort();
    served = await startInProcess(
      { scenarioFile: scenario, hosts: [], port, zones: { columns: 2, rows: 1 }, processes: 1, snapshotEvery: 2, rejoinGrace: 30, handoverTimeoutMs: 1000, namespace: 'test', pageDir: join(dir, 'no-page') },
      () => {},
    );
    served.host.runRealtime();
  });

  afterAll(async () => {
    // A room already left never answers leave(): do not wait on it.
    for (const r of rooms) void r.leave().catch(() => {});
    await served?.close();
  });

  it('answers GET /zones, /status and /', async () => {
    const zones = (await (await fetch(`http://localhost:${port}/zones`)).json()) as ZonesResponse;
    expect(zones.world).toEqual({ width: 60, height: 40 });
    expect(zones.zones.map((z) => z.id)).toEqual(['z0-0', 'z1-0']);
    expect(zones.breeds).toEqual(['Pilgrim']);
    expect(zones.spells).toContain('bless');
    const status = (await (await fetch(`http://localhost:${port}/status`)).json()) as StatusResponse;
    expect(status.zones.map((z) => [z.id, z.pid, z.entities])).toEqual([
      ['z0-0', process.pid, 0],
      ['z1-0', process.pid, 1],
    ]);
    expect(status.zones.every((z) => typeof z.stepMs === 'number' && z.stepMs >= 0)).toBe(true);
    const page = await (await fetch(`http://localhost:${port}/`)).text();
    expect(page).toContain('Cantrip zone server');
  });

  it('refuses a breed players may not take, with a message', async () => {
    const client = new Client(`http://localhost:${port}`);
    await expect(client.joinById('z0-0', { breed: 'Wanderer' })).rejects.toThrow('Breed "Wanderer" is not one players may take here: choose one of Pilgrim.');
  });

  it('sees across the border, answers bad messages with errors, and moves a client with its avatar into the next zone', async () => {
    const a = new Client(`http://localhost:${port}`);
    const b = new Client(`http://localhost:${port}`);
    const roomA = await a.joinById('z0-0', { breed: 'Pilgrim', name: 'ann', x: 24, y: 20 });
    const inboxA = new Inbox(roomA);
    const roomB = await b.joinById('z1-0', { name: 'bob', x: 33, y: 20 });
    const inboxB = new Inbox(roomB);
    rooms.push(roomA, roomB);
    const welcomeA = await inboxA.wait<WelcomeMessage>(MESSAGE.welcome);
    const welcomeB = await inboxB.wait<WelcomeMessage>(MESSAGE.welcome);
    expect(welcomeA).toMatchObject({ zone: 'z0-0', interest: 10, world: { width: 60, height: 40 } });
    expect(welcomeB.zone).toBe('z1-0');

    // Each sees the other across the border (a ghost on each side).
    await inboxA.wait<ViewMessage>(MESSAGE.view, (v) => (v.e ?? []).some(([id]) => id === welcomeB.avatar));
    await inboxB.wait<ViewMessage>(MESSAGE.view, (v) => (v.e ?? []).some(([id]) => id === welcomeA.avatar));
    expect(inView(inboxA)).toEqual(new Set([welcomeA.avatar, welcomeB.avatar]));

    // Bad messages: each answered, none applied, the room goes on.
    const errors = (): ErrorMessage[] => inboxA.all.filter((x) => x.type === MESSAGE.error).map((x) => x.message as ErrorMessage);
    roomA.send(MESSAGE.cast, { spell: 'fireball' });
    roomA.send(MESSAGE.cast, { spell: 'smite', target: '123456789' });
    roomA.send(MESSAGE.cast, { spell: 'smite', args: [{ evil: true }] });
    roomA.send(MESSAGE.cast, { spell: 'smite', caster: welcomeB.avatar, target: welcomeB.avatar });
    roomA.send(MESSAGE.move, { vx: 'fast', vy: 0 });
    roomA.send('teleport', { x: 1 });
    await inboxA.wait<ErrorMessage>(MESSAGE.error, (e) => e.message.startsWith('Unknown message type'));
    expect(errors().map((e) => e.code)).toEqual(['unknown-spell', 'unknown-target', 'bad-arguments', 'not-your-entity', 'bad-message', 'bad-message']);

    // A cast on the ghost across the border: the damage reaches its owner, and both clients see the health.
    roomA.send(MESSAGE.cast, { spell: 'smite', target: welcomeB.avatar });
    await inboxB.wait<ViewMessage>(MESSAGE.view, (v) => (v.h ?? []).some(([id, health]) => id === welcomeB.avatar && health === 37));
    await inboxA.wait<ViewMessage>(MESSAGE.view, (v) => (v.h ?? []).some(([id, health]) => id === welcomeB.avatar && health === 37));

    // A flood: past the rate, one `flood` error.
    for (let i = 0; i < 150; i++) roomA.send(MESSAGE.move, { vx: 0, vy: 0 });
    await inboxA.wait<ErrorMessage>(MESSAGE.error, (e) => e.code === 'flood');

    // Walk east into z1-0: the client is handed a seat there and keeps its avatar.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    roomA.send(MESSAGE.move, { vx: 100, vy: 0 });
    const handover = await inboxA.wait<HandoverMessage>(MESSAGE.handover);
    expect(handover.zone).toBe('z1-0');
    const moved = await a.consumeSeatReservation(handover.reservation);
    const inboxMoved = new Inbox(moved);
    rooms.push(moved);
    void roomA.leave();
    const again = await inboxMoved.wait<WelcomeMessage>(MESSAGE.welcome);
    expect(again).toMatchObject({ avatar: welcomeA.avatar, zone: 'z1-0' });
    await inboxMoved.wait<ViewMessage>(MESSAGE.view, (v) => (v.e ?? []).some(([id]) => id === welcomeA.avatar));
    const status = (await (await fetch(`http://localhost:${port}/status`)).json()) as StatusResponse;
    expect(status.handovers).toBeGreaterThanOrEqual(1);
    expect(served.host.zones.get('z1-0')!.owns(Number(welcomeA.avatar))).toBe(true);
    expect(served.host.zones.get('z0-0')!.owns(Number(welcomeA.avatar))).toBe(false);
  });
});
