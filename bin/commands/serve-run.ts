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
import { BreedError, WorldError } from '../../runtime/errors.js';
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
  readonly handoverTimeout: number;
  readonly namespace?: string;
  readonly only?: string;
  readonly publicHost?: string;
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
  // A worker's supervisor has checked all this already.
  if (cli.worker === undefined) await checkBeforeServing(file, text, io);
  const options: ServeOptions = {
    scenarioFile: file,
    port: cli.port,
    zones,
    processes: cli.processes,
    redis: cli.redis,
    ticks: cli.ticks,
    summary: cli.summary,
    snapshotEvery: cli.snapshotEvery,
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
 * checked against what a served world has — the built-in functions: the
 * server runs without the game, so the game's own (its api file) are not
 * there, and a spell calling one is said before serving, not as a cast
 * error when a player casts it.
 */
async function checkBeforeServing(file: string, text: string, io: CliIO): Promise<void> {
  let scenario;
  try {
    scenario = scenarioPaths(file, parseScenario(text));
  } catch (error) {
    if (error instanceof WorldError) throw new CliFailure(`cantrip: ${error.message.replace(/^Scenario: /, `${file}: `)}`, EXIT.dataError);
    throw error;
  }
  const project = new Projects(io).ofOrFail(file);
  await checkScenarioSpells(file, scenario.spells, { hosts: WORLD_HOST_FUNCTIONS, apiFile: null, explainUndefined: (names) => gameFunctionsNote(names, project) }, io);
}

/** When some of the names are the game's functions (its api file's), which `serve` cannot run: why, in place of check's note; else null (check's note). */
function gameFunctionsNote(names: readonly string[], project: Project): string | null {
  const isGame = (name: string): boolean => project.gameHosts.some((spec) => spec.name === name);
  const list = (some: readonly string[]): string => `${some.map((n) => `'${n}'`).join(', ')} ${some.length === 1 ? 'is' : 'are'}`;
  const game = names.filter(isGame);
  const others = names.filter((name) => !isGame(name));
  if (game.length === 0) return null;
  return (
    `note: ${list(game)} declared in ${project.apiFile}, but \`cantrip serve\` runs the world without your game: ` +
    `a served spell can call only the built-in functions (\`cantrip api\` lists them)` +
    (others.length === 0 ? '.' : `; ${list(others)} not defined anywhere.`)
  );
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
