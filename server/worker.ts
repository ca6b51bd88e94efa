/**
 * A worker process of `cantrip serve --processes N` (forked by
 * server/supervisor.ts, the same CLI with `--worker n`): runs the zones the
 * supervisor gives it — from the scenario, or taken over from a dead
 * worker's save — on Redis's ownership store and bus, with its own Colyseus
 * server on port P+1+n (Redis presence and driver: a client that joins
 * through any process reaches the zone's room). It beats a heartbeat key in
 * Redis, writes its zones' status there, and answers the supervisor over IPC.
 */

import { Redis } from 'ioredis';
import type { Server } from '@colyseus/core';
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TTL_MS, countRecovered, heartbeatKey, readClusterStatus, writeZoneStatus, zoneServed } from './cluster-status.js';
import { createZoneRooms, startGameServer, stopGameServer } from './game-server.js';
import { RedisOwnershipStore } from './redis-ownership-store.js';
import { RedisZoneBus } from './redis-zone-bus.js';
import { loadServedScenario } from './served-scenario.js';
import { shareServedWorld } from './served-world.js';
import { zonesResponse } from './serve-in-process.js';
import type { ServeOptions, ServeSummary } from './serve-options.js';
import { summarize } from './summary.js';
import { SpellReloader, type SpellSource } from './spell-reload.js';
import { ZoneHost } from './zone-host.js';
import { assignZone, readAssignment, workerKey } from './zone-assignment.js';

/** The exit code of a worker that found its zones taken over (EX_TEMPFAIL). */
const EXIT_FENCED = 75;

/** Supervisor → worker. */
export type ToWorker =
  | { readonly type: 'run'; readonly zones: readonly string[]; readonly recover: boolean }
  | { readonly type: 'settle' }
  /** Reload these spell files in every zone here (the supervisor tried them first). */
  | { readonly type: 'reload'; readonly files: readonly SpellSource[] }
  | { readonly type: 'summary' }
  | { readonly type: 'exit' };

/** Worker → supervisor. */
export type FromWorker =
  | { readonly type: 'ready'; readonly worker: number; readonly pid: number; readonly key: string }
  | { readonly type: 'done'; readonly worker: number; readonly zones: readonly string[] }
  | { readonly type: 'settled'; readonly worker: number; readonly busy: number }
  | { readonly type: 'summary'; readonly worker: number; readonly summary: ServeSummary }
  | { readonly type: 'failed'; readonly worker: number; readonly message: string }
  /** It reloaded the files in its zones (or why it could not). */
  | { readonly type: 'reloaded'; readonly worker: number; readonly zones: number; readonly error?: string }
  /** Stopping: it saved its zones (entities owned), the ones whose save failed named. */
  | { readonly type: 'saved'; readonly worker: number; readonly zones: number; readonly entities: number; readonly failed: readonly string[] };

export async function runWorker(o: ServeOptions, worker: number, log: (message: string) => void): Promise<void> {
  const send = (message: FromWorker): void => {
    process.send?.(message);
  };
  const redisUrl = o.redis!;
  const served = loadServedScenario(o.scenarioFile, o.zones, o.hosts);
  const key = workerKey();
  // Fenced: entities come to this process's zones only while the assignment gives it those zones.
  const store = new RedisOwnershipStore(redisUrl, o.namespace, key);
  const bus = new RedisZoneBus(redisUrl, o.namespace);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  const host = new ZoneHost({ served, store, bus, handoverTimeoutMs: o.handoverTimeoutMs, saveEveryMs: o.snapshotEvery * 1000, log });
  const reloader = new SpellReloader(served);
  shareServedWorld({ grid: served.grid, zones: host.zones, playerBreeds: served.playerBreeds, spawn: served.spawn, spells: served.spells, breeds: served.breeds, rejoinGraceMs: o.rejoinGrace * 1000 });

  const beat = (): void => void redis.set(heartbeatKey(o.namespace, key), String(process.pid), 'PX', HEARTBEAT_TTL_MS).catch(() => {});
  beat();
  /**
   * Fencing: a worker that stopped beating for a while (hung, cut off) may find its zones
   * taken over by another. It must not go on running them beside their new owner: it stops.
   */
  const fence = async (): Promise<void> => {
    const assignment = await readAssignment(redis, o.namespace);
    for (const id of host.zones.keys()) {
      const holder = assignment.get(id);
      if (holder !== undefined && holder !== key) {
        log(`zone ${id} is served by ${holder} now (this worker, ${key}, was taken for dead): this worker stops`);
        process.exit(EXIT_FENCED);
      }
    }
  };
  /**
   * A zone's status is written once its room is there: the status naming this process is how a player
   * whose zone was taken over learns it may join again (cluster-status.ts, zoneServed).
   */
  const withRoom = new Set<string>();
  const writeStatus = (): Promise<void> => writeZoneStatus(redis, o.namespace, host.status().filter((z) => withRoom.has(z.id)));
  const timers = [
    setInterval(beat, HEARTBEAT_EVERY_MS),
    setInterval(() => void writeStatus().catch(() => {}), HEARTBEAT_EVERY_MS),
    setInterval(() => void fence().catch(() => {}), HEARTBEAT_EVERY_MS),
  ];
  const port = o.port + 1 + worker;
  // A --ticks run has no players: no port, no rooms.
  const server: Server | null = o.ticks !== undefined ? null : await startGameServer({
    port,
    redis: redisUrl,
    publicAddress: `${o.publicHost ?? 'localhost'}:${port}`,
    pageDir: o.pageDir,
    log,
    status: () => readClusterStatus(redis, o.namespace),
    zones: () => zonesResponse(served),
    whereIs: async (id) => {
      const record = await store.owner(id);
      return record === null ? null : { zone: record.zone, ready: await zoneServed(redis, o.namespace, record.zone) };
    },
  });

  let driving: Promise<void> | null = null;
  let realtime = false;
  const drive = (): void => {
    if (o.ticks === undefined) {
      if (!realtime) host.runRealtime();
      realtime = true;
      return;
    }
    if (driving !== null) return;
    const ticks = o.ticks;
    driving = host.runTicks(ticks).then(() => {
      driving = null;
      send({ type: 'done', worker, zones: [...host.zones.keys()] });
    });
  };

  let finished: () => void = () => {};
  const exited = new Promise<void>((resolve) => (finished = resolve));
  const handle = async (message: ToWorker): Promise<void> => {
    switch (message.type) {
      case 'run':
        for (const id of message.zones) {
          await assignZone(redis, o.namespace, id, key);
          const zone = await host.addZone(id, message.recover);
          if (message.recover) await countRecovered(redis, o.namespace, zone.recovered);
          // A room for it here; after a takeover Colyseus may still list the dead process's room of that id.
          if (server !== null) await createZoneRooms([id]).catch((error: unknown) => log(`zone ${id}: no room in process ${process.pid} (${error instanceof Error ? error.message : String(error)})`));
          withRoom.add(id);
          await writeStatus();
        }
        drive();
        return;
      case 'settle': {
        await host.settle(3 * o.handoverTimeoutMs);
        send({ type: 'settled', worker, busy: [...host.zones.values()].reduce((n, z) => n + z.handover.busy, 0) });
        return;
      }
      case 'summary':
        send({ type: 'summary', worker, summary: summarize(host) });
        return;
      case 'reload':
        try {
          reloader.apply(host.zones.values(), message.files);
          send({ type: 'reloaded', worker, zones: host.zones.size });
        } catch (error) {
          send({ type: 'reloaded', worker, zones: 0, error: error instanceof Error ? error.message.split('\n')[0]! : String(error) });
        }
        return;
      case 'exit':
        finished();
        return;
    }
  };
  process.on('message', (message: ToWorker) => {
    handle(message).catch((error: unknown) => send({ type: 'failed', worker, message: error instanceof Error ? error.message : String(error) }));
  });
  // The supervisor went away: so does this worker. A signal to the whole process group (Ctrl-C,
  // a service manager) reaches the workers too: each drains as when its supervisor asks.
  process.on('disconnect', () => finished());
  process.on('SIGTERM', () => finished());
  process.on('SIGINT', () => finished());
  send({ type: 'ready', worker, pid: process.pid, key });
  await exited;
  // Stopping on purpose: save every zone first, so whoever takes them over starts from now.
  host.stop();
  for (const t of timers) clearInterval(t);
  const failed: string[] = [];
  for (const zone of host.zones.values()) await zone.saveNow().catch((error: unknown) => failed.push(`${zone.id} (${error instanceof Error ? error.message : String(error)})`));
  send({ type: 'saved', worker, zones: host.zones.size - failed.length, entities: [...host.zones.values()].reduce((n, z) => n + z.ownedCount, 0), failed });
  await host.close();
  if (server !== null) await stopGameServer(server);
  await redis.del(heartbeatKey(o.namespace, key)).catch(() => 0);
  redis.disconnect();
  await bus.close();
  await store.close();
}
