/**
 * `cantrip serve --processes 2 --redis …` for real: two forked worker
 * processes, four zones, 2,000 wanderers (spells/wanderers.spell) walking
 * across the borders while their journey casts wait. At the end every
 * entity exists exactly once and every journey finished exactly once. A
 * second run kills a worker with SIGKILL mid-run: a survivor takes its zones
 * over from their last save, and no entity is lost or duplicated.
 * Needs the built CLI (npm run build) and /usr/bin/redis-server (skipped without).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import { MESSAGE, type HandoverMessage, type StatusResponse, type WelcomeMessage, type ZoneStatus } from './protocol.js';
import type { ServeSummary } from './serve-options.js';
import { freePort, startRedis, type TestRedis } from './throwaway-redis.js';
import { tempDir } from '../tests/temp-dir.test-helper.js';

const ROOT = new URL('..', import.meta.url).pathname;
const ENTITIES = 2000;

function writeScenario(dir: string): string {
  const breeds = join(dir, 'breeds.json');
  // Quick wanderers with short sight: many border crossings, few AOI pairs.
  writeFileSync(breeds, JSON.stringify({ breeds: [{ name: 'Wanderer', health: 20, speed: 8, interest: 1.5, spells: { tick: 'roam' }, attributes: { journeys: 0 } }] }));
  let seed = 7;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const entities = Array.from({ length: ENTITIES }, (_, i) => ({ name: `w${i + 1}`, breed: 'Wanderer', x: 1 + random() * 98, y: 1 + random() * 98 }));
  const scenario = join(dir, 'crowd.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      breeds,
      spells: [join(ROOT, 'spells/wanderers.spell')],
      world: { width: 100, height: 100, partition: 'grid', cellSize: 4, step: 0.05 },
      seed: 3,
      entities,
    }),
  );
  return scenario;
}

interface Run {
  readonly code: number | null;
  readonly stderr: string;
  readonly summary: ServeSummary | null;
}

/** How long a run may take before it is stopped (SIGTERM, then SIGKILL) and reported with its stderr: less than a test's timeout. */
const RUN_DEADLINE_MS = 45_000;

function serve(args: string[], duringRun?: (port: number) => Promise<void>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/cantrip.js'), 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const port = Number(args[args.indexOf('--port') + 1]);
    void duringRun?.(port);
    // A run that never ends fails with what the supervisor printed (not a bare test timeout), and leaves no process behind.
    const deadline = setTimeout(() => {
      stderr += `\n[test] the run did not end within ${RUN_DEADLINE_MS} ms: stopped\n`;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    }, RUN_DEADLINE_MS);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      const file = args[args.indexOf('--summary') + 1]!;
      let summary: ServeSummary | null = null;
      try {
        summary = JSON.parse(readFileSync(file, 'utf8')) as ServeSummary;
      } catch {
        summary = null;
      }
      resolve({ code, stderr, summary });
    });
  });
}

function everyEntityOnce(summary: ServeSummary): void {
  const names = summary.zones.flatMap((z) => z.entities);
  expect(names).toHaveLength(ENTITIES);
  expect(new Set(names).size).toBe(ENTITIES);
  for (let i = 1; i <= ENTITIES; i++) expect(names).toContain(`w${i}`);
}

describe('cantrip serve --processes 2 --redis', () => {
  let redis: TestRedis | null;
  let dir: string;
  let scenario: string;

  beforeAll(async () => {
    redis = await startRedis();
    dir = tempDir('cantrip-zones-');
    scenario = writeScenario(dir);
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('hands 2,000 wanderers across borders between two processes: each exists once, each journey ends once', async (context) => {
    if (redis === null) return context.skip();
    const summaryFile = join(dir, 'summary.json');
    const port = await freePort();
    const run = await serve([scenario, '--zones', '2x2', '--processes', '2', '--redis', redis.url, '--port', String(port), '--ticks', '300', '--summary', summaryFile]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code, run.stderr).toBe(0);
    const summary = run.summary!;
    expect(summary.zones.map((z) => [z.id, z.tick])).toEqual([
      ['z0-0', 300],
      ['z1-0', 300],
      ['z0-1', 300],
      ['z1-1', 300],
    ]);
    expect(new Set(summary.zones.map((z) => z.pid)).size).toBe(2);
    everyEntityOnce(summary);
    expect(summary.handovers).toBeGreaterThan(200);
    // A journey waits 40 steps of its entity's own time (time in transit does not count): 300 leave room for many crossings.
    expect(summary.events['print']).toBe(ENTITIES);
    expect(summary.events['cast-error'] ?? 0).toBe(0);
    expect(summary.recovered).toBe(0);
  }, 60_000);

  // Retried once: in about one clean-clone CI run of ten on this 2-core machine (with every other test file running beside
  // it) this run did not end in time; standalone it passed every time (~14 s). The run's deadline (serve) prints what the
  // supervisor said when that happens, so the cause can be found.
  it('a worker killed with SIGKILL mid-run: a survivor takes its zones over from their save, no entity lost or duplicated', { timeout: 60_000, retry: 1 }, async (context) => {
    if (redis === null) return context.skip();
    const summaryFile = join(dir, 'summary-kill.json');
    const port = await freePort();
    let killed = 0;
    // A --ticks run binds no port: the zones' status is read where the workers write it, in Redis.
    const namespace = `kill-${port}`;
    const reader = new Redis(redis.url);
    const run = await serve(
      [scenario, '--zones', '2x2', '--processes', '2', '--redis', redis.url, '--port', String(port), '--ticks', '700', '--summary', summaryFile, '--snapshot-every', '0.5', '--namespace', namespace],
      async () => {
        // Once the zones have run a while, kill the process running z1-0.
        for (let i = 0; i < 600 && killed === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const text = await reader.hget(`${namespace}:status`, 'z1-0').catch(() => null);
          const zone = text === null ? undefined : (JSON.parse(text) as ZoneStatus);
          if (zone !== undefined && zone.tick >= 150) {
            killed = zone.pid;
            process.kill(zone.pid, 'SIGKILL');
          }
        }
      },
    );
    reader.disconnect();
    expect(killed).toBeGreaterThan(0);
    expect(run.stderr).toContain(`(process ${killed}) exited (SIGKILL): worker`);
    expect(run.code, run.stderr).toBe(0);
    const summary = run.summary!;
    expect(summary.zones.every((z) => z.tick === 700)).toBe(true);
    expect(summary.zones.some((z) => z.pid === killed)).toBe(false);
    expect(summary.recovered).toBeGreaterThan(0);
    everyEntityOnce(summary);
  });

  it('a player walks from a zone in one process into a zone in another: the seat is reserved there, the avatar keeps its id', async (context) => {
    if (redis === null) return context.skip();
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/cantrip.js'), 'serve', join(ROOT, 'spells/scenarios/zones.json'), '--zones', '2x1', '--processes', '2', '--redis', redis.url, '--port', String(port)],
      { stdio: 'ignore' },
    );
    try {
      const status = async (): Promise<StatusResponse | null> => {
        try {
          return (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as StatusResponse;
        } catch {
          return null;
        }
      };
      let ready: StatusResponse | null = null;
      for (let i = 0; i < 300 && !(ready !== null && ready.zones.length === 2); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = await status();
      }
      expect(new Set(ready!.zones.map((z) => z.pid)).size).toBe(2);
      // Through the supervisor's port: Colyseus's matchmaking finds the worker running z0-0.
      const client = new Client(`http://127.0.0.1:${port}`);
      const room = await client.joinById('z0-0', { x: 28, y: 20 });
      const got: { type: string; message: unknown }[] = [];
      room.onMessage('*', (type, message) => got.push({ type: String(type), message }));
      const first = async <T>(type: string, from: typeof got): Promise<T> => {
        for (let i = 0; i < 150; i++) {
          const found = from.find((x) => x.type === type);
          if (found !== undefined) return found.message as T;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`no ${type} (got ${from.map((x) => x.type).join(', ')})`);
      };
      const welcome = await first<WelcomeMessage>(MESSAGE.welcome, got);
      room.send(MESSAGE.move, { vx: 4, vy: 0 });
      const handover = await first<HandoverMessage>(MESSAGE.handover, got);
      expect(handover.zone).toBe('z1-0');
      const moved = await client.consumeSeatReservation(handover.reservation);
      const there: typeof got = [];
      moved.onMessage('*', (type, message) => there.push({ type: String(type), message }));
      void room.leave();
      const again = await first<WelcomeMessage>(MESSAGE.welcome, there);
      expect(again).toMatchObject({ avatar: welcome.avatar, zone: 'z1-0' });
      const z1 = (await status())!.zones.find((z) => z.id === 'z1-0')!;
      expect(z1.pid).not.toBe(ready!.zones.find((z) => z.id === 'z0-0')!.pid);
      void moved.leave();
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 60_000);

  it('one process on Redis (--redis without --processes): the same summary', async (context) => {
    if (redis === null) return context.skip();
    const summaryFile = join(dir, 'summary-one.json');
    const run = await serve([join(ROOT, 'spells/scenarios/zones.json'), '--zones', '2x2', '--redis', redis.url, '--port', String(await freePort()), '--ticks', '80', '--summary', summaryFile]);
    expect(run.code, run.stderr).toBe(0);
    const summary = run.summary!;
    expect(new Set(summary.zones.map((z) => z.pid)).size).toBe(1);
    const names = summary.zones.flatMap((z) => z.entities);
    expect(names).toHaveLength(40);
    expect(new Set(names).size).toBe(40);
    expect(summary.events['print']).toBe(40);
  }, 60_000);
});
