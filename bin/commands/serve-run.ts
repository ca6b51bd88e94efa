/**
 * What `cantrip serve` does once its arguments are parsed: check them, then
 * serve in this process, supervise worker processes, or (internally) be one.
 *
 * Exit codes: 0 served (or ran --ticks and wrote the summary); 64 bad
 * options; 65 bad scenario, breeds, spells or cantrip.json, or a spell
 * calling a name nothing defines; 66 the scenario cannot be read; 69 the
 * port is in use, Redis cannot be reached, or a zone asked for is served
 * already; 70 the worker processes failed.
 */
import { resolve } from 'node:path';
import { BreedError, WorldError } from '../../runtime/errors.js';
import type { HostFunction } from '../../vm/host.js';
import { gameHosts, HostsModuleMissing, loadHostsModule } from '../../server/game-hosts.js';
import { readApiFile } from '../api-file.js';
import { VerifyError } from '../../vm/errors.js';
import { PortInUseError } from '../../server/game-server.js';
import { WorkersFailed, ZoneTakenError } from '../../server/supervisor.js';
import type { ServeOptions } from '../../server/serve-options.js';
import { parseGridSize } from '../../server/zone-grid.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { parseScenario } from '../../runtime/scenario/scenario.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { decodeSourceText, readInputBytes } from '../input.js';
import type { CliIO } from '../io.js';
import { Projects, type Project } from '../project-config.js';
import { checkScenarioSpells, scenarioPaths } from './scenario-check.js';

/** The options of `cantrip serve`, as commander parsed them. */
export interface ServeCliOptions {
  readonly port: number;
  readonly zones: string;
  readonly processes: number;
  readonly redis?: string;
  readonly ticks?: number;
  readonly summary?: string;
  readonly snapshotEvery: number;
  readonly rejoinGrace: number;
  readonly watch?: boolean;
  readonly handoverTimeout: number;
  readonly namespace?: string;
  readonly only?: string;
  readonly publicHost?: string;
  /** The game's host functions: an ES module (default export: the list `new World({ hosts })` takes). */
  readonly hosts?: string;
  /** The game's host functions, declared only (a call without a --hosts implementation fails at run time). */
  readonly api?: string;
  /** Internal: this process is worker N of a `--processes` server. */
  readonly worker?: number;
}

export async function runServe(file: string, cli: ServeCliOptions & { namespace: string }, pageDir: string, io: CliIO): Promise<number> {
  const zones = parseGridSize(cli.zones);
  if (zones === null) throw new CliFailure(`cantrip: --zones must be columns x rows, such as 3x2 (at most 1024 zones), not '${cli.zones}'.`, EXIT.usage);
  if ((cli.ticks === undefined) !== (cli.summary === undefined)) throw new CliFailure('cantrip: --ticks and --summary go together: --ticks T --summary FILE.', EXIT.usage);
  if (cli.processes > 1 && cli.redis === undefined) throw new CliFailure('cantrip: --processes needs --redis URL: the processes share ownership and hand-overs through Redis.', EXIT.usage);
  if (cli.processes > zones.columns * zones.rows) {
    throw new CliFailure(`cantrip: ${cli.processes} processes for ${zones.columns * zones.rows} zones: some would run none. Use at most one process per zone.`, EXIT.usage);
  }
  const only = cli.only?.split(',').map((z) => z.trim()).filter((z) => z !== '');
  if (only !== undefined) {
    if (cli.redis === undefined) throw new CliFailure('cantrip: --only needs --redis URL: the machines serving one world share it.', EXIT.usage);
    const known = new Set<string>();
    for (let row = 0; row < zones.rows; row++) for (let column = 0; column < zones.columns; column++) known.add(`z${column}-${row}`);
    const unknown = only.filter((z) => !known.has(z));
    if (only.length === 0 || unknown.length > 0) throw new CliFailure(`cantrip: --only names zones of the --zones grid (z0-0 … z${zones.columns - 1}-${zones.rows - 1}), not '${unknown.join(',') || cli.only}'.`, EXIT.usage);
    if (cli.processes > only.length) throw new CliFailure(`cantrip: ${cli.processes} processes for the ${only.length} zones of --only: some would run none.`, EXIT.usage);
  }
  const text = decodeSourceText(file, readInputBytes(file, io));
  const hostsModule = cli.hosts === undefined ? undefined : resolve(cli.hosts);
  const apiFile = cli.api === undefined ? undefined : resolve(cli.api);
  const hosts = await loadGameHosts(hostsModule, apiFile, io);
  // A worker's supervisor has checked all this already.
  if (cli.worker === undefined) await checkBeforeServing(file, text, hosts, io);
  const options: ServeOptions = {
    scenarioFile: file,
    hosts,
    hostsModule,
    apiFile,
    port: cli.port,
    zones,
    processes: cli.processes,
    redis: cli.redis,
    ticks: cli.ticks,
    summary: cli.summary,
    snapshotEvery: cli.snapshotEvery,
    watch: cli.watch === true,
    rejoinGrace: cli.rejoinGrace,
    handoverTimeoutMs: cli.handoverTimeout,
    namespace: cli.namespace,
    pageDir,
    only,
    publicHost: cli.publicHost,
  };
  const log = (message: string): void => io.stderr(message + '\n');
  try {
    if (cli.redis !== undefined) await checkRedis(cli.redis);
    if (cli.worker !== undefined) {
      const { runWorker } = await import('../../server/worker.js');
      await runWorker(options, cli.worker, log);
      // Saved and closed: the Colyseus and Redis clients' sockets must not keep a stopping worker (and its supervisor, which waits for it) alive.
      process.exit(EXIT.ok);
    } else if (cli.processes > 1 || only !== undefined) {
      const { supervise } = await import('../../server/supervisor.js');
      await supervise(options, log);
    } else {
      const { serveInProcess } = await import('../../server/serve-in-process.js');
      await serveInProcess(options, log);
    }
  } catch (error) {
    if (error instanceof PortInUseError || error instanceof RedisUnreachable || error instanceof ZoneTakenError) throw new CliFailure(`cantrip: ${error.message}`, EXIT.unavailable);
    if (error instanceof WorkersFailed) throw new CliFailure(`cantrip: the worker processes failed: ${error.message}`, EXIT.software);
    if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) {
      throw new CliFailure(`cantrip: ${error.message.replace(/^Scenario: /, `${file}: `)}`, EXIT.dataError);
    }
    throw error;
  }
  return EXIT.ok;
}

/**
 * The scenario's project read as every command reads it, and its spells
 * checked against what a served world has — the built-in functions and the
 * game's it is given (--hosts, --api) — so a spell calling anything else is
 * said before serving, not as a cast error when a player casts it.
 */
async function checkBeforeServing(file: string, text: string, gameHosts: readonly HostFunction[], io: CliIO): Promise<void> {
  let scenario;
  try {
    scenario = scenarioPaths(file, parseScenario(text));
  } catch (error) {
    if (error instanceof WorldError) throw new CliFailure(`cantrip: ${error.message.replace(/^Scenario: /, `${file}: `)}`, EXIT.dataError);
    throw error;
  }
  const project = new Projects(io).ofOrFail(file);
  await checkScenarioSpells(file, scenario.spells, { hosts: [...WORLD_HOST_FUNCTIONS, ...gameHosts], apiFile: null, explainUndefined: (names) => gameFunctionsNote(names, project) }, io);
}

/** Why the names are undefined for serve, in place of check's note (which speaks of check's options): the game's functions serve was not given, or names nothing declares. */
function gameFunctionsNote(names: readonly string[], project: Project): string {
  const isGame = (name: string): boolean => project.gameHosts.some((spec) => spec.name === name);
  const list = (some: readonly string[]): string => `${some.map((n) => `'${n}'`).join(', ')} ${some.length === 1 ? 'is' : 'are'}`;
  const game = names.filter(isGame);
  const others = names.filter((name) => !isGame(name));
  if (game.length === 0) {
    return (
      `note: ${list(names)} not a built-in and not declared in the spell. If ${names.length === 1 ? 'it is one' : 'they are'} of your game's host functions, ` +
      `serve with --hosts MODULE (their implementation) or --api FILE (declared only: a call fails in its cast); docs/server.md.`
    );
  }
  return (
    `note: ${list(game)} declared in ${project.apiFile}, but \`cantrip serve\` was not given your game's functions: ` +
    `serve with --hosts MODULE (their implementation) or --api ${project.apiFile} (declared only: a call fails in its cast)` +
    (others.length === 0 ? '.' : `; ${list(others)} not defined anywhere.`)
  );
}

/** The --hosts module's functions, then those the --api file declares and the module does not implement. */
async function loadGameHosts(hostsModule: string | undefined, apiFile: string | undefined, io: CliIO): Promise<HostFunction[]> {
  const declared = apiFile === undefined ? [] : readApiFile(apiFile, io);
  try {
    return gameHosts(hostsModule === undefined ? [] : await loadHostsModule(hostsModule), declared, apiFile);
  } catch (error) {
    if (error instanceof HostsModuleMissing) throw new CliFailure(`cantrip: ${error.message}`, EXIT.noInput);
    if (error instanceof WorldError) throw new CliFailure(`cantrip: ${error.message}`, EXIT.dataError);
    throw error;
  }
}

class RedisUnreachable extends Error {}

/** Redis answers PING, or a sentence saying it does not (never ioredis's retry loop on stderr). */
async function checkRedis(url: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 3000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new RedisUnreachable(`Redis at ${url} cannot be reached (${error instanceof Error ? error.message : String(error)}): start it, or leave out --redis to serve in one process.`);
  } finally {
    redis.disconnect();
  }
}
