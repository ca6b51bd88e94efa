/**
 * Hand-overs between two processes over Redis (its store's Lua
 * compare-and-set and its pub/sub bus): zone z0-0 here, z1-0 in a forked
 * process (bench/server/handover-peer.ts). Each entity handed over has its
 * journey cast waiting. Two loads: a steady 1,000 a second (20 a tick at
 * 20 Hz, like a busy border) for the latency of one hand-over, offer to
 * accept — median and p99 — and a burst of everything at once for the most
 * a second. Both processes warm up first on hand-overs that are not counted
 * (the first few hundred run cold: JIT, Redis script loading, the verifier's
 * per-VM tables). Targets (issue 21): ≥ 1,000 a second, p99 ≤ 10 ms.
 */

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RedisOwnershipStore } from '../../server/redis-ownership-store.js';
import { RedisZoneBus } from '../../server/redis-zone-bus.js';
import { startRedis } from '../../server/throwaway-redis.js';
import type { EntityId } from '../../runtime/events/events.js';
import { ZoneGrid, benchZone } from './bench-world.js';

export interface HandoverResult {
  readonly steadyPerSecond: number;
  readonly steadyCount: number;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  /** The p99 of each quarter of the steady run, in order: does the latency grow (a backlog) or spike? */
  readonly p99ByQuarter: readonly number[];
  readonly burstCount: number;
  readonly burstPerSecond: number;
  readonly arrived: number;
}

const WIDTH = 400;
const HEIGHT = 200;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

export async function handoverRate(steadyCount: number, burstCount: number, warmupCount = 1000): Promise<HandoverResult | null> {
  const redis = await startRedis();
  if (redis === null) return null;
  const ns = `bench:${process.pid}`;
  const peer = fork(fileURLToPath(new URL('./handover-peer.js', import.meta.url)), [redis.url, ns, String(WIDTH), String(HEIGHT)], { stdio: 'inherit' });
  const store = new RedisOwnershipStore(redis.url, ns);
  const bus = new RedisZoneBus(redis.url, ns);
  try {
    await new Promise<void>((resolve) => peer.once('message', () => resolve()));
    const grid = new ZoneGrid(WIDTH, HEIGHT, { columns: 2, rows: 1 }, 1);
    const zone = await benchZone({ grid, zone: 'z0-0', store, bus });
    const ids: EntityId[] = [];
    for (let i = 0; i < warmupCount + steadyCount + burstCount; i++) ids.push(await zone.spawn('Wanderer', 5 + (i % 190), 5 + ((i * 7) % 190)));
    zone.world.step(); // every wanderer starts its journey: a cast waiting when it goes
    zone.world.flush();
    const offeredAt = new Map<EntityId, number>();
    const latencies: number[] = [];
    let accepted = 0;
    zone.handover.listener = {
      left: (id) => {
        latencies.push(performance.now() - offeredAt.get(id)!);
        accepted++;
      },
    };
    const waitAccepted = async (n: number): Promise<void> => {
      while (accepted < n) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    /** Offer `batch` at 20 every 20 ms. */
    const steady = async (batch: readonly EntityId[]): Promise<void> => {
      const start = performance.now();
      for (let i = 0; i < batch.length; i += 20) {
        const wait = start + i - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        for (const id of batch.slice(i, i + 20)) {
          offeredAt.set(id, performance.now());
          zone.handover.offer(id, 'z1-0');
        }
      }
    };
    await steady(ids.slice(0, warmupCount));
    await waitAccepted(warmupCount);
    latencies.length = 0;
    accepted = 0;
    const steadyStart = performance.now();
    await steady(ids.slice(warmupCount, warmupCount + steadyCount));
    await waitAccepted(steadyCount);
    const steadySeconds = (performance.now() - steadyStart) / 1000;
    const steadyLatencies = latencies.slice(0, steadyCount);
    const sorted = [...steadyLatencies].sort((a, b) => a - b);
    // Burst: everything left at once.
    const burstStart = performance.now();
    for (const id of ids.slice(warmupCount + steadyCount)) {
      offeredAt.set(id, performance.now());
      zone.handover.offer(id, 'z1-0');
    }
    await waitAccepted(steadyCount + burstCount);
    const burstSeconds = (performance.now() - burstStart) / 1000;
    const done = new Promise<{ arrived: number }>((resolve) => peer.once('message', (m) => resolve(m as { arrived: number })));
    peer.send('exit');
    const { arrived } = await done;
    await zone.disconnect();
    return {
      steadyPerSecond: steadyCount / steadySeconds,
      steadyCount,
      medianMs: percentile(sorted, 0.5),
      p90Ms: percentile(sorted, 0.9),
      p99Ms: percentile(sorted, 0.99),
      p99ByQuarter: [0, 1, 2, 3].map((q) => {
        const part = steadyLatencies.slice((q * steadyCount) / 4, ((q + 1) * steadyCount) / 4).sort((a, b) => a - b);
        return percentile(part, 0.99);
      }),
      burstCount,
      burstPerSecond: burstCount / burstSeconds,
      arrived,
    };
  } finally {
    if (peer.exitCode === null) peer.kill();
    await bus.close();
    await store.close();
    await redis.stop();
  }
}
