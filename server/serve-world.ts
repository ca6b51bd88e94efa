/**
 * `serveWorld`: the zone server for a game that starts it from its own code
 * (`cantrip serve` is the same server from the command line). The game gives
 * the scenario as data, its own host functions (the list `new World({ hosts })`
 * takes), the Colyseus Server options it wants, and a Redis URL when zones
 * are saved to Redis; it gets back a handle to read the status and close.
 *
 *   import { serveWorld } from 'cantrip-lang/server';
 *   import hosts from './game-hosts.js';
 *   const served = await serveWorld({ scenario, baseDir: 'spells', hosts, zones: '2x2', port: 2567 });
 *   …
 *   await served.close();
 *
 * Every zone runs in this process (one served world per process: Colyseus
 * finds the rooms' world by the room type). Worker processes with crash
 * recovery are `cantrip serve --processes N --hosts MODULE` (docs/server.md).
 */

import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ServerOptions } from '@colyseus/core';
import { WorldError } from '../runtime/errors.js';
import type { Scenario, ScenarioFiles } from '../runtime/scenario/scenario.js';
import type { HostFunction } from '../vm/host.js';
import type { SpellsReload } from '../runtime/world/world.js';
import type { StatusResponse } from './protocol.js';
import { servedScenario, withPaths } from './served-scenario.js';
import { assertServerPackages } from './server-packages.js';
import { parseGridSize, type GridSize } from './zone-grid.js';

export interface ServeWorldOptions {
  /** The scenario as data (`cantrip sim`'s format with `players`); its breeds and spell paths are relative to `baseDir`. */
  readonly scenario: Scenario;
  /** The folder the scenario's paths are relative to (default: the working directory). */
  readonly baseDir?: string;
  /** Reads the breeds and spell files (default: from disk), e.g. from the game's own bundle. */
  readonly files?: ScenarioFiles;
  /** The game's own host functions, as `new World({ hosts })` takes them; every zone's world has them. */
  readonly hosts?: readonly HostFunction[];
  /** The zone grid, `{ columns, rows }` or `'CxR'` (default 1x1). */
  readonly zones?: GridSize | string;
  /** The HTTP and WebSocket port (default 2567). */
  readonly port?: number;
  /**
   * Colyseus `ServerOptions` of the game's own (transport, presence, driver, logger, express routes …).
   * Typed here as an object so that this entry's types never name a package the game may not have
   * installed (the server's packages are optional peers); `satisfies ServerOptions` types it at the call.
   */
  readonly server?: object;
  /** Redis for the zones' saves, ownership and bus, and Colyseus's presence and driver (several processes or machines). */
  readonly redis?: string;
  /** The Redis key prefix (default: a fresh one). */
  readonly namespace?: string;
  /** Seconds between saves of each zone to Redis (default 2). */
  readonly snapshotEverySeconds?: number;
  /** Milliseconds a hand-over waits before it reads the owner record (default 1000). */
  readonly handoverTimeoutMs?: number;
  /** Seconds an avatar waits for its player to come back after its connection dropped (default 30). */
  readonly rejoinGraceSeconds?: number;
  /** The host name clients reach this process by (seat reservations carry it). */
  readonly publicHost?: string;
  /** Where the server's one-line messages go (default: stderr). */
  readonly log?: (message: string) => void;
}

/** A world being served. */
export interface ServedWorldHandle {
  /** The port it listens on. */
  readonly port: number;
  /** What `GET /status` answers: each zone's tick, entities, ghosts, clients, hand-overs. */
  status(): Promise<StatusResponse>;
  /**
   * Reload one of the scenario's spell files (named as the scenario names it, or its file name; may be left
   * out when there is one) in every zone: World.loadSpells's rules and report. All or nothing: a source
   * that does not compile, clashes, drops a spell a breed names or whose script fails throws
   * (SpellsCompileError / WorldError) and changes nothing.
   */
  reload(source: string, file?: string): SpellsReload;
  /** Stop stepping, close the rooms and the port, disconnect from Redis. */
  close(): Promise<void>;
}

/**
 * Serve a scenario, stepping its zones in real time. Bad data (scenario,
 * breeds, spells, host functions, spells calling functions the hosts do not
 * have) is a WorldError / BreedError / VerifyError saying what and where.
 */
export async function serveWorld(o: ServeWorldOptions): Promise<ServedWorldHandle> {
  // Before anything that imports Colyseus: a missing package is one sentence naming the npm install.
  assertServerPackages();
  const { startServedInProcess } = await import('./serve-in-process.js');
  const zones = typeof o.zones === 'string' ? parseGridSize(o.zones) : (o.zones ?? { columns: 1, rows: 1 });
  if (zones === null) throw new WorldError(`serveWorld: zones must be columns x rows, such as '3x2' (at most 1024 zones), not '${String(o.zones)}'.`);
  const scenario = withPaths(o.baseDir ?? process.cwd(), o.scenario);
  const served = servedScenario(scenario, zones, { name: o.scenario.description ?? 'the scenario', hosts: o.hosts ?? [], files: o.files });
  const port = o.port ?? 2567;
  const log = o.log ?? ((message: string) => process.stderr.write(message + '\n'));
  const server = await startServedInProcess(
    served,
    {
      port,
      redis: o.redis,
      namespace: o.namespace ?? `cantrip:world:${randomBytes(4).toString('hex')}`,
      snapshotEvery: o.snapshotEverySeconds ?? 2,
      handoverTimeoutMs: o.handoverTimeoutMs ?? 1000,
      rejoinGrace: o.rejoinGraceSeconds ?? 30,
      pageDir: fileURLToPath(new URL('../serve-page/', import.meta.url)),
      publicHost: o.publicHost,
      colyseus: o.server as ServerOptions | undefined,
    },
    log,
  );
  server.host.runRealtime();
  return {
    port,
    status: server.status,
    reload: (source, file) => server.reload([{ path: server.reloader.fileFor(file), source }])[0]!,
    close: server.close,
  };
}
