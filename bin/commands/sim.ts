/**
 * `cantrip sim <scenario.json> [--ticks N] [--json]`: run a scenario (a
 * world, breeds, spells, entities and timed casts) headless and print what
 * happened — one line per event, or JSON lines with --json.
 *
 * The world runtime (and the compiler it pulls in) is loaded only when `sim`
 * runs, so `--help`, `--version` and running a `.spb` start fast.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, type CliCommand, type CommandContext } from '../command.js';
import type { SimOptions } from './simulate.js';

export const simCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('sim')
      .description('run a world scenario headless and print its events')
      .argument('<scenario>', 'the scenario .json file')
      .option('--ticks <n>', 'number of fixed steps to run (default: the scenario’s "ticks", else 100)', parseTicks)
      .option('--json', 'print events as JSON lines')
      .option(API_OPTION_FLAGS, `${API_OPTION_HELP}; each call records a host-call event`)
      .action(async (file: string, options: SimOptions) => {
        const { simulate } = await import('./simulate.js');
        context.setExitCode(await simulate(file, options, context.io));
      });
  },
};

function parseTicks(value: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n > 10_000_000) {
    throw new InvalidArgumentError('ticks must be a whole number up to 10000000.');
  }
  return n;
}
