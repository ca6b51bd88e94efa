/**
 * `serveWorld` as a game uses it: the scenario as data, the game's own host
 * functions, a player (the Colyseus SDK) casting a spell that calls one; a
 * scenario whose spells call a function the server lacks is refused with
 * every name and place; a host function only declared fails its cast with a
 * message; the scenario's casts run at their ticks in their caster's zone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorldError } from '../runtime/errors.js';
import type { Scenario } from '../runtime/scenario/scenario.js';
import type { HostFunction } from '../vm/host.js';
import { tempDir } from '../tests/temp-dir.test-helper.js';
import { declaredOnlyServerHosts } from './game-hosts.js';
import { MESSAGE, type ClientWorldEvent, type WelcomeMessage } from './protocol.js';
import { Inbox } from './room-inbox.test-helper.js';
import { serveWorld, type ServedWorldHandle } from './serve-world.js';
import { freePort } from './throwaway-redis.js';

const SPELLS = `
spell reward(caster, target) {
  say(caster, "purse " + str(giveGold(caster, 5)));
}
spell chant(caster, target) {
  say(caster, "chant at " + str(caster.name));
}
`;
const BREEDS = JSON.stringify({
  breeds: [
    { name: 'Pilgrim', health: 40, speed: 4, interest: 10 },
    { name: 'Priest', health: 40, speed: 0, interest: 10 },
  ],
});

/** The game's host function: a purse per entity, kept by the game. */
function purseHosts(purses: Map<number, number>): HostFunction[] {
  return [
    {
      name: 'giveGold',
      params: [
        { name: 'target', type: 'entity' },
        { name: 'amount', type: 'number' },
      ],
      returns: 'number',
      doc: 'Add gold to an entity’s purse; the new amount.',
      impl: (_ctx, target, amount) => {
        const id = (target as unknown as { id: number }).id;
        const total = (purses.get(id) ?? 0) + (amount as number);
        purses.set(id, total);
        return total;
      },
    },
  ];
}

function writeGame(dir: string): void {
  writeFileSync(join(dir, 'game.spell'), SPELLS);
  writeFileSync(join(dir, 'breeds.json'), BREEDS);
}

const scenario = (extra: Partial<Scenario> = {}): Scenario => ({
  breeds: 'breeds.json',
  spells: ['game.spell'],
  world: { width: 40, height: 20, partition: 'grid', cellSize: 4, step: 0.05 },
  players: { breeds: ['Pilgrim'], spawn: { x: 5, y: 5 } },
  ...extra,
});

async function join1(port: number, zone: string, x: number, y: number): Promise<{ room: Room; inbox: Inbox; welcome: WelcomeMessage }> {
  const room = await new Client(`http://localhost:${port}`).joinById(zone, { breed: 'Pilgrim', name: 'ann', x, y });
  const inbox = new Inbox(room);
  return { room, inbox, welcome: await inbox.wait<WelcomeMessage>(MESSAGE.welcome) };
}

const saysThat = (text: string) => (events: ClientWorldEvent[]) => events.some((e) => e.type === 'say' && String(e['text']).includes(text));

describe('serveWorld', () => {
  const dir = tempDir('cantrip-serve-world-');
  const purses = new Map<number, number>();
  let served: ServedWorldHandle;
  const rooms: Room[] = [];

  beforeAll(async () => {
    writeGame(dir);
    served = await serveWorld({
      scenario: scenario({
        entities: [{ name: 'abbot', breed: 'Priest', x: 30, y: 10 }],
        casts: [
          { tick: 30, spell: 'chant', caster: 'abbot' },
          { tick: 31, spell: 'reward', caster: 'abbot' },
        ],
      }),
      baseDir: dir,
      hosts: purseHosts(purses),
      zones: '2x1',
      port: await freePort(),
      log: () => {},
    });
  });

  afterAll(async () => {
    for (const r of rooms) void r.leave().catch(() => {});
    await served?.close();
  });

  it("serves the game's host functions: a player's cast calls one", async () => {
    const { room, inbox, welcome } = await join1(served.port, 'z0-0', 5, 5);
    rooms.push(room);
    room.send(MESSAGE.cast, { spell: 'reward' });
    await inbox.wait<ClientWorldEvent[]>(MESSAGE.events, saysThat('purse 5'));
    expect(purses.get(Number(welcome.avatar))).toBe(5);
    const status = await served.status();
    expect(status.zones.map((z) => z.id)).toEqual(['z0-0', 'z1-0']);
  });

  it("runs the scenario's casts at their ticks, in the zone of their caster", async () => {
    // The abbot stands in z1-0; a pilgrim near it hears both casts (the second calls the game's host).
    const { room, inbox } = await join1(served.port, 'z1-0', 28, 10);
    rooms.push(room);
    const chant = await inbox.wait<ClientWorldEvent[]>(MESSAGE.events, saysThat('chant at abbot'), 10_000);
    expect(chant.find((e) => e.type === 'say')!['tick']).toBe(30);
    await inbox.wait<ClientWorldEvent[]>(MESSAGE.events, saysThat('purse 5'));
    const casts = inbox.all.flatMap((m) => (m.type === MESSAGE.events ? (m.message as ClientWorldEvent[]) : [])).filter((e) => e.type === 'say' && String(e['text']).startsWith('chant'));
    expect(casts).toHaveLength(1);
  });
});

describe('a message over the size limit', () => {
  it('closes that connection and logs one line, no stack trace', async () => {
    const dir = tempDir('cantrip-serve-world-big-');
    writeGame(dir);
    const logged: string[] = [];
    const served = await serveWorld({ scenario: scenario(), baseDir: dir, hosts: purseHosts(new Map()), port: await freePort(), log: (line) => logged.push(line) });
    try {
      const { room } = await join1(served.port, 'z0-0', 5, 5);
      const left = new Promise<number>((resolve) => room.onLeave((code) => resolve(code)));
      room.send(MESSAGE.cast, { spell: 'x'.repeat(2_000_000) });
      expect(await left).toBe(1009);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(logged.filter((l) => l.includes('Max payload size exceeded'))).toEqual([
        'colyseus error: a client sent a message over the WebSocket size limit (Max payload size exceeded): its connection was closed (code 1009).',
      ]);
      expect(logged.join('\n')).not.toMatch(/\n\s+at /);
    } finally {
      await served.close();
    }
  });
});

describe('serveWorld refuses what would fail in front of players', () => {
  it('a scenario whose spells call a function the server lacks: every name and place', async () => {
    const dir = tempDir('cantrip-serve-world-missing-');
    writeGame(dir);
    const refused = serveWorld({ scenario: scenario(), baseDir: dir, port: await freePort(), log: () => {} });
    await expect(refused).rejects.toThrow(WorldError);
    await expect(refused).rejects.toThrow(`${join(dir, 'game.spell')}:3:30: 'giveGold'`);
    await expect(refused).rejects.toThrow("the spells call 'giveGold', which is not a built-in");
  });

  it('a cast on an unknown entity name', async () => {
    const dir = tempDir('cantrip-serve-world-casts-');
    writeGame(dir);
    const refused = serveWorld({ scenario: scenario({ casts: [{ tick: 1, spell: 'chant', caster: 'nobody' }] }), baseDir: dir, hosts: purseHosts(new Map()), port: await freePort(), log: () => {} });
    await expect(refused).rejects.toThrow("cast of 'chant' at tick 1 names unknown caster 'nobody'");
  });

  it('a host function only declared: served, and a call fails in its cast with a message', async () => {
    const dir = tempDir('cantrip-serve-world-declared-');
    writeGame(dir);
    const declared = declaredOnlyServerHosts(purseHosts(new Map()), 'game-api.json');
    const served = await serveWorld({ scenario: scenario(), baseDir: dir, hosts: declared, port: await freePort(), log: () => {} });
    try {
      const { room, inbox } = await join1(served.port, 'z0-0', 5, 5);
      room.send(MESSAGE.cast, { spell: 'reward' });
      const events = await inbox.wait<ClientWorldEvent[]>(MESSAGE.events, (es) => es.some((e) => e.type === 'cast-error'));
      const error = events.find((e) => e.type === 'cast-error')!;
      expect(error['message']).toContain('giveGold() is declared in game-api.json but this server has no implementation of it: serve with --hosts MODULE');
      expect(error['line']).toBe(3);
      void room.leave().catch(() => {});
    } finally {
      await served.close();
    }
  });
});
