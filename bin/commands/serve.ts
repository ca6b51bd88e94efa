/**
 * `cantrip serve <scenario.json> [--port P] [--zones CxR] [--processes N]
 * [--redis URL] [--ticks T --summary FILE] [--snapshot-every SECONDS]`:
 * a multiplayer world server on Colyseus (server/, docs/server.md).
 *
 * The server code (Colyseus, Redis) is loaded only when `serve` runs, and
 * only once its packages are known to be installed: they are optional peer
 * dependencies, and a missing one is one line naming the `npm install` that
 * brings them, with exit 69 (EX_UNAVAILABLE).
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliCommand, CommandContext } from '../command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import type { ServeCliOptions } from './serve-run.js';

export const serveCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('serve')
      .description('serve a world to players over Colyseus, split into zones over one or more processes')
      .argument('<scenario>', 'the scenario .json file (its "players" field says who may join)')
      .option('--port <p>', 'the HTTP and WebSocket port', whole('port', 0, 65535), 2567)
      .option('--zones <CxR>', 'cut the world into C columns × R rows of zones', '1x1')
      .option('--processes <n>', 'worker processes to run the zones in (needs --redis)', whole('processes', 1, 64), 1)
      .option('--redis <url>', 'Redis for ownership, hand-over and Colyseus presence (several processes or machines)')
      .option('--ticks <t>', 'step every zone T ticks as fast as it can, write --summary, exit', whole('ticks', 0, 10_000_000))
      .option('--summary <file>', 'where --ticks writes its JSON summary')
      .option('--snapshot-every <seconds>', 'seconds between saves of each zone (what a survivor takes a dead process’s zones over from)', seconds, 2)
      .option('--handover-timeout <ms>', 'milliseconds a hand-over waits for its answer before it reads the owner record', whole('handover-timeout', 10, 600_000), 1000)
      .option('--namespace <name>', 'the Redis key prefix: processes on several machines serving one world pass the same')
      .option('--public-host <name>', 'the host name clients reach this machine by (seat reservations name it; default localhost)')
      .option('--only <zones>', 'with --redis: the zones this machine serves, comma-separated (z0-0,z1-0); other machines serve the rest')
      .addOption(program.createOption('--worker <n>').argParser(whole('worker', 0, 63)).hideHelp())
      .action(async (file: string, options: ServeCliOptions) => {
        const { assertServerPackages, ServerPackagesMissing } = await import('../../server/server-packages.js');
        try {
          assertServerPackages();
        } catch (error) {
          if (error instanceof ServerPackagesMissing) throw new CliFailure(`cantrip: ${error.message}`, EXIT.unavailable);
          throw error;
        }
        const [{ runServe }, { randomBytes }] = await Promise.all([import('./serve-run.js'), import('node:crypto')]);
        const pageDir = fileURLToPath(new URL('../../serve-page/', import.meta.url));
        const namespace = options.namespace ?? `cantrip:${basename(file).replace(/\.json$/, '')}:${randomBytes(4).toString('hex')}`;
        context.setExitCode(await runServe(file, { ...options, namespace }, pageDir, context.io));
      });
  },
};

function whole(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return n;
  };
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new InvalidArgumentError('snapshot-every must be a number of seconds above 0, at most 3600.');
  return n;
}
