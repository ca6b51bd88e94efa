/**
 * `cantrip serve` in one process (the default): every zone here, on the
 * in-memory ownership store and the local bus — or on Redis's with --redis —
 * behind one Colyseus server. Runs until SIGINT / SIGTERM, or with --ticks
 * steps every zone T times as fast as it can, writes the summary and returns.
 */

import { writeFileSync } from 'node:fs';
import type { Server, ServerOptions } from '@colyseus/core';
import { LocalZoneBus } from './local-zone-bus.js';
import { MemoryOwnershipStore } from './memory-ownership-store.js';
import type { OwnershipStore } from './ownership-store.js';
import { RedisOwnershipStore } from './redis-ownership-store.js';
import { RedisZoneBus } from './redis-zone-bus.js';
import { loadServedScenario, type ServedScenario } from './served-scenario.js';
import { shareServedWorld } from './served-world.js';
import type { ServeOptions } from './serve-options.js';
import { summarize } from './summary.js';
import { createZoneRooms, startGameServer, stopGameServer } from './game-server.js';
import { ZoneHost } from './zone-host.js';
import type { ZoneBus } from './zone-bus.js';
import type { StatusResponse, ZonesResponse } from './protocol.js';
import type { SpellsReload } from '../runtime/world/world.js';
import { SpellReloader, describeReload, watchSpellFiles, type SpellSource } from './spell-reload.js';

export function zonesResponse(served: ServedScenario): ZonesResponse {
  return { world: { width: served.grid.width, height: served.grid.height }, zones: served.grid.rects(), spells: [...served.spells], breeds: [...served.playerBreeds] };
}

/** A world served in this process, running until closed. */
export interface InProcessServer {
  readonly served: ServedScenario;
  readonly host: ZoneHost;
  status(): Promise<StatusResponse>;
  /** Reload spell files in every zone (all or nothing: SpellsCompileError / WorldError when they cannot be loaded, and nothing changed). */
  reload(files: readonly SpellSource[]): SpellsReload[];
  readonly reloader: SpellReloader;
  close(): Promise<void>;
}

/** What serving in one process needs beside the scenario (ServeOptions less what the CLI alone uses). */
export type InProcessOptions = Pick<ServeOptions, 'port' | 'redis' | 'snapshotEvery' | 'handoverTimeoutMs' | 'namespace' | 'pageDir' | 'publicHost' | 'rejoinGrace'> & {
  /** A game's own Colyseus Server options (serveWorld). */
  readonly colyseus?: ServerOptions;
  /** False: no port, no rooms (a `--ticks` run has no players). */
  readonly listen?: boolean;
};

/** Build every zone of the scenario file, start the Colyseus server and the rooms; the zones are not stepped yet. */
export async function startInProcess(o: ServeOptions, log: (message: string) => void): Promise<InProcessServer> {
  return startServedInProcess(loadServedScenario(o.scenarioFile, o.zones, o.hosts), { ...o, listen: o.ticks === undefined }, log);
}

/** Build every zone of a checked scenario, start the Colyseus server and the rooms; the zones are not stepped yet. */
export async function startServedInProcess(served: ServedScenario, o: InProcessOptions, log: (message: string) => void): Promise<InProcessServer> {
  const store: OwnershipStore = o.redis !== undefined ? new RedisOwnershipStore(o.redis, o.namespace) : new MemoryOwnershipStore();
  const bus: ZoneBus = o.redis !== undefined ? new RedisZoneBus(o.redis, o.namespace) : new LocalZoneBus();
  // Saves are what another process takes a zone over from: without Redis there is none to take it.
  const saveEveryMs = o.redis !== undefined ? o.snapshotEvery * 1000 : 0;
  const host = new ZoneHost({ served, store, bus, handoverTimeoutMs: o.handoverTimeoutMs, saveEveryMs, log });
  const reloader = new SpellReloader(served);
  const reload = (files: readonly SpellSource[]): SpellsReload[] => {
    const reports = reloader.trial(files);
    reloader.apply(host.zones.values(), files);
    return reports;
  };
  let server: Server | null = null;
  const close = async (): Promise<void> => {
    await host.close();
    if (server !== null) await stopGameServer(server);
    await bus.close();
    await store.close();
  };
  const status = async (): Promise<StatusResponse> => {
    const zones = host.status();
    return { zones, handovers: zones.reduce((n, z) => n + z.handoversOut, 0), recovered: 0 };
  };
  try {
    for (const zone of served.grid.zones) await host.addZone(zone.id, false);
    if (o.listen === false) {
      log(`cantrip serve: ${served.grid.zones.length} zone${served.grid.zones.length === 1 ? '' : 's'} of ${served.file} in process ${process.pid}, no port (a --ticks run)`);
      return { served, host, status, reload, reloader, close };
    }
    shareServedWorld({ grid: served.grid, zones: host.zones, playerBreeds: served.playerBreeds, spawn: served.spawn, spells: served.spells, breeds: served.breeds, rejoinGraceMs: o.rejoinGrace * 1000 });
    server = await startGameServer({
      port: o.port,
      redis: o.redis,
      publicAddress: o.publicHost === undefined ? undefined : `${o.publicHost}:${o.port}`,
      pageDir: o.pageDir,
      log,
      status,
      zones: () => zonesResponse(served),
      whereIs: async (id) => {
        const record = await store.owner(id);
        // Every zone is in this process (with Redis, a zone another process runs is its to say).
        return record === null ? null : { zone: record.zone, ready: true };
      },
      colyseus: o.colyseus,
    });
    await createZoneRooms(host.zones.keys());
  } catch (error) {
    await close();
    throw error;
  }
  log(`cantrip serve: ${served.grid.zones.length} zone${served.grid.zones.length === 1 ? '' : 's'} of ${served.file} on port ${o.port} (process ${process.pid})`);
  return { served, host, status, reload, reloader, close };
}

/** Runs the whole world in this process; resolves when it stops (a signal, or --ticks done). */
export async function serveInProcess(o: ServeOptions, log: (message: string) => void): Promise<void> {
  const { served, host, reload, close } = await startInProcess(o, log);
  const unwatch = o.watch !== true ? () => {} : watchSpellFiles(spellFiles(served), (file) => log(reloadLine(() => reload([file]), file, `in ${host.zones.size} zone${host.zones.size === 1 ? '' : 's'}`)));
  try {
    if (o.ticks !== undefined) {
      await host.runTicks(o.ticks);
      await host.settle(10 * o.handoverTimeoutMs);
      if (o.summary !== undefined) writeFileSync(o.summary, JSON.stringify(summarize(host), null, 2) + '\n');
      return;
    }
    host.runRealtime();
    const signal = await untilSignalled();
    log(await drain(host, o.redis !== undefined, signal));
  } finally {
    unwatch();
    await close();
  }
}

/** The scenario's spell files a reload can replace (bytecode is compiled elsewhere). */
export function spellFiles(served: ServedScenario): string[] {
  return served.scenario.spells.filter((f) => !f.endsWith('.spb'));
}

/** What `--watch` says of a changed file: what the reload changed, or why nothing did. */
export function reloadLine(reload: () => SpellsReload[], file: SpellSource, where: string): string {
  try {
    return describeReload(reload(), where);
  } catch (error) {
    return notReloadedLine(file, error);
  }
}

export function notReloadedLine(file: SpellSource, error: unknown): string {
  return `cantrip serve: ${file.path} changed but was not reloaded, nothing changed anywhere: ${error instanceof Error ? error.message : String(error)}`;
}

/** Resolves at SIGINT or SIGTERM, with its name. */
export function untilSignalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Stop stepping and save every zone (with Redis: what a later run or another process takes them over from); the line that says so. */
export async function drain(host: ZoneHost, saved: boolean, signal: NodeJS.Signals): Promise<string> {
  host.stop();
  const zones = [...host.zones.values()];
  const entities = zones.reduce((n, z) => n + z.ownedCount, 0);
  if (!saved) return `cantrip serve: stopped on ${signal}: ${zones.length} zone${zones.length === 1 ? '' : 's'}, ${entities} entities (nothing is saved without --redis).`;
  const failed: string[] = [];
  for (const zone of zones) await zone.saveNow().catch((error: unknown) => failed.push(`${zone.id} (${error instanceof Error ? error.message : String(error)})`));
  const note = failed.length === 0 ? '' : `; not saved: ${failed.join(', ')}`;
  return `cantrip serve: stopped on ${signal}: saved ${zones.length - failed.length} zone${zones.length === 1 ? '' : 's'} (${entities} entities) to Redis${note}.`;
}
