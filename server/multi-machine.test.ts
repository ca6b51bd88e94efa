/**
 * Two "machines" serving one world against one Redis: two `cantrip serve`
 * commands with the same namespace, each dealing its own zones (`--only`) to
 * its worker. When one machine hangs whole (its supervisor and its worker
 * stopped with SIGSTOP), the other takes its zones over from their saves:
 * every zone runs again, in the survivor's process, and no entity is lost;
 * when the hung machine comes back, its worker sees its zones taken and stops.
 * Needs the built CLI and /usr/bin/redis-server (skipped without).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { MESSAGE, type StatusResponse, type WelcomeMessage } from './protocol.js';
import { freePort, startRedis, type TestRedis } from './throwaway-redis.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ZONES = `${ROOT}spells/scenarios/zones.json`;

function machine(redis: string, port: number, only: string): ChildProcess {
  return spawn(
    process.execPath,
    [`${ROOT}bin/cantrip.js`, 'serve', ZONES, '--zones', '2x2', '--processes', '1', '--only', only, '--redis', redis, '--namespace', 'two-machines', '--port', String(port), '--snapshot-every', '0.5'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

async function status(port: number): Promise<StatusResponse | null> {
  try {
    return (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as StatusResponse;
  } catch {
    return null;
  }
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two machines serving one world against one Redis', () => {
  let redis: TestRedis | null;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await redis?.stop();
  });

  it('one machine hangs: the other takes its zones over, no entity lost; the hung one stops when it comes back', async (context) => {
    if (redis === null) return context.skip();
    const [portA, portB] = [await freePort(), await freePort()];
    const a = machine(redis.url, portA, 'z0-0,z1-0');
    const b = machine(redis.url, portB + 10, 'z0-1,z1-1');
    children.push(a, b);
    let stderrA = '';
    a.stderr!.on('data', (chunk: Buffer) => (stderrA += chunk.toString()));
    // Both serve: machine A's status shows the four zones in two processes.
    const before = await until(async () => {
      const s = await status(portA);
      // Each process writes its own zones' status: the sum is 40 whenever no wanderer is between two writes.
      return s !== null && s.zones.length === 4 && s.zones.every((z) => z.tick > 30) && s.zones.reduce((n, z) => n + z.entities, 0) === 40 ? s : null;
    }, 30_000, 'both machines to serve');
    expect(new Set(before.zones.map((z) => z.pid)).size).toBe(2);
    // A third command for a zone a live machine serves is refused.
    const third = machine(redis.url, await freePort(), 'z0-0');
    children.push(third);
    let stderrThird = '';
    third.stderr!.on('data', (chunk: Buffer) => (stderrThird += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => third.once('exit', resolve));
    expect(code).toBe(69);
    expect(stderrThird).toMatch(/^cantrip: Zone z0-0 is served already, by a live worker \(.+\): leave it out of --only, or stop that server first\.\n$/);
    const pidOfB = before.zones.find((z) => z.id === 'z0-1')!.pid;
    const pidOfA = before.zones.find((z) => z.id === 'z0-0')!.pid;
    let stderrB = '';
    b.stderr!.on('data', (chunk: Buffer) => (stderrB += chunk.toString()));
    // Machine B hangs (cut off): its supervisor and its worker stop beating.
    b.kill('SIGSTOP');
    process.kill(pidOfB, 'SIGSTOP');
    const after = await until(async () => {
      const s = await status(portA);
      const moved = s?.zones.filter((z) => z.id === 'z0-1' || z.id === 'z1-1') ?? [];
      return s !== null && moved.length === 2 && moved.every((z) => z.pid === pidOfA) ? s : null;
    }, 20_000, 'machine A to take over');
    expect(stderrA).toContain('(another supervisor\'s) stopped beating');
    // B's worker comes back (its supervisor still hung, so nothing kills it): it finds its zones
    // served by A's worker now and stops, rather than run them twice.
    process.kill(pidOfB, 'SIGCONT');
    // (It exits; its hung parent cannot reap it, so it lingers as a zombie: /proc says so, and its words.)
    const stopped = (): boolean => !existsSync(`/proc/${pidOfB}`) || /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pidOfB}/stat`, 'utf8'));
    await until(async () => stopped(), 20_000, "B's worker to stop").catch(() => expect.fail(`B's worker still runs; B said:\n${stderrB}`));
    expect(stderrB).toMatch(/zone z(0|1)-1 is served by .+ now \(this worker, .+, was taken for dead\): this worker stops/);
    b.kill('SIGKILL');
    // Wait for every zone to report after the takeover, then count: each wanderer once.
    const settled = await until(async () => {
      const s = await status(portA);
      return s !== null && s.zones.every((z) => z.pid === pidOfA) && s.zones.reduce((n, z) => n + z.entities, 0) === 40 ? s : null;
    }, 10_000, 'every wanderer once in A');
    expect(settled.recovered).toBeGreaterThan(0);
    expect(after.zones).toHaveLength(4);
    // A player joins a taken-over zone through the surviving machine's port.
    const client = new Client(`http://127.0.0.1:${portA}`);
    const room = await client.joinById('z1-1', { x: 45, y: 30 });
    const welcome = await new Promise<WelcomeMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no welcome in the taken-over zone')), 10_000);
      room.onMessage(MESSAGE.welcome, (m: WelcomeMessage) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    expect(welcome.zone).toBe('z1-1');
    void room.leave();
    a.kill('SIGTERM');
    await new Promise((resolve) => a.once('exit', resolve));
  }, 90_000);
});
