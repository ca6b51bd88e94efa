/**
 * A player survives the death of the process running its zone: `cantrip
 * serve --processes 2 --redis`, two players in z0-0, then `kill -9` of the
 * worker running z0-0. Ann comes back as the same avatar the way the page
 * does (GET /avatar/<id> on the supervisor's port for the zone, then
 * joinById with the welcome's token) and plays on; Bob never comes back, and
 * his avatar leaves the world after the grace period. Prints how long Ann
 * was out. Needs the built CLI and /usr/bin/redis-server (skipped without).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopServe } from '../tests/e2e/cantrip-serve.js';
import { tempDir } from '../tests/temp-dir.test-helper.js';
import { MESSAGE, type AvatarResponse, type StatusResponse, type ViewMessage, type WelcomeMessage } from './protocol.js';
import { Inbox } from './room-inbox.test-helper.js';
import { freePort, startRedis, type TestRedis } from './throwaway-redis.js';

const ROOT = new URL('..', import.meta.url).pathname;
const GRACE_SECONDS = 8;

function writeScenario(dir: string): string {
  const scenario = join(dir, 'world.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      breeds: join(ROOT, 'spells/zone-breeds.json'),
      spells: [join(ROOT, 'spells/wanderers.spell')],
      world: { width: 40, height: 20, partition: 'grid', cellSize: 4, step: 0.05 },
      entities: [{ name: 'w1', breed: 'Wanderer', x: 30, y: 10 }],
      players: { breeds: ['Pilgrim'], spawn: { x: 5, y: 5 } },
    }),
  );
  return scenario;
}

interface Joined {
  room: Room;
  inbox: Inbox;
  welcome: WelcomeMessage;
}

async function joinAs(client: Client, zone: string, options: Record<string, unknown>): Promise<Joined> {
  const room = await client.joinById(zone, { compact: true, ...options });
  // The player's own rejoin replaces the SDK's retries of a room whose process is gone.
  room.reconnection.enabled = false;
  const inbox = new Inbox(room);
  return { room, inbox, welcome: await inbox.wait<WelcomeMessage>(MESSAGE.welcome) };
}

/** What a client does when its room died: ask where its avatar is now, and join that zone's room with its token; again until it works. */
async function rejoin(base: string, client: Client, welcome: WelcomeMessage, limitMs: number): Promise<Joined> {
  const until = Date.now() + limitMs;
  let last = '';
  while (Date.now() < until) {
    try {
      const answer = await fetch(`${base}/avatar/${welcome.avatar}`);
      const at = answer.ok ? ((await answer.json()) as AvatarResponse) : null;
      if (at?.ready) return await joinAs(client, at.zone, { rejoin: welcome.token });
      last = at === null ? `GET /avatar: ${answer.status}` : `zone ${at.zone} is being taken over`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no way back within ${limitMs} ms (last: ${last})`);
}

describe('a player whose zone’s process dies', () => {
  let redis: TestRedis | null = null;
  let server: ChildProcess | null = null;
  let stderr = '';
  let port = 0;

  beforeAll(async () => {
    redis = await startRedis();
    if (redis === null) return;
    port = await freePort();
    const args = ['serve', writeScenario(tempDir('cantrip-rejoin-')), '--zones', '2x1', '--processes', '2', '--redis', redis.url, '--port', String(port)];
    args.push('--snapshot-every', '0.5', '--rejoin-grace', String(GRACE_SECONDS));
    server = spawn(process.execPath, [join(ROOT, 'bin/cantrip.js'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; i < 600 && !stderr.includes('players on ports'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  }, 60_000);

  afterAll(async () => {
    await stopServe(server ?? undefined);
    await redis?.stop();
  });

  it('is playing again as the same avatar after kill -9; one who never comes back leaves after the grace period', async () => {
    if (redis === null) return;
    expect(stderr).toContain('players on ports');
    const base = `http://localhost:${port}`;
    const client = new Client(base);
    const ann = await joinAs(client, 'z0-0', { breed: 'Pilgrim', name: 'ann', x: 5, y: 5 });
    const bob = await joinAs(new Client(base), 'z0-0', { breed: 'Pilgrim', name: 'bob', x: 8, y: 5 });
    expect(ann.welcome.token).toMatch(/^\d+\.[0-9a-f-]{36}$/);
    // In a save (every 0.5 s) before the crash.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const status = (await (await fetch(`${base}/status`)).json()) as StatusResponse;
    const victim = status.zones.find((z) => z.id === 'z0-0')!.pid;
    const annLeft = new Promise<void>((resolve) => ann.room.onLeave(() => resolve()));
    const killedAt = Date.now();
    process.kill(victim, 'SIGKILL');
    await annLeft;
    const back = await rejoin(base, client, ann.welcome, 30_000);
    const rejoinedMs = Date.now() - killedAt;
    expect(back.welcome.avatar).toBe(ann.welcome.avatar);
    expect(back.welcome.zone).toBe('z0-0');
    // Playing: it moves, and its view says so.
    back.room.send(MESSAGE.move, { vx: 4, vy: 0 });
    const moved = (v: ViewMessage): boolean => (v.c ?? []).length > 0;
    await back.inbox.wait<ViewMessage>(MESSAGE.view, moved, 10_000);
    const playingMs = Date.now() - killedAt;
    console.log(`[player-rejoin] after kill -9 of the worker running its zone: rejoined as the same avatar in ${(rejoinedMs / 1000).toFixed(1)} s, moving again in ${(playingMs / 1000).toFixed(1)} s`);

    // Bob never comes back: after the grace period his avatar is gone from the world.
    const bobGone = async (): Promise<boolean> => (await fetch(`${base}/avatar/${bob.welcome.avatar}`)).status === 404;
    const deadline = Date.now() + (GRACE_SECONDS + 10) * 1000;
    while (!(await bobGone()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await bobGone()).toBe(true);
    expect((await fetch(`${base}/avatar/${ann.welcome.avatar}`)).status).toBe(200);
    await back.room.leave();
  }, 60_000);
});
