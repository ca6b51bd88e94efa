/**
 * `cantrip api [--json] [--api game-api.json]`: the host API spells can call
 * — the built-ins (core and world), plus a game's declared functions when
 * --api names a declaration file (which also checks that file). `--json`
 * prints it in the declaration format `--api` reads, so a game can start its
 * own file from it; without it, one signature and doc line per function.
 * The listing itself is ./api-list.ts, loaded when the command runs.
 */
import type { Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, type CliCommand, type CommandContext } from '../command.js';

export const apiCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('api')
      .description('print the host functions spells can call (--json: as a host API declaration)')
      .option('--json', 'print the declaration JSON that --api reads')
      .option(API_OPTION_FLAGS, `${API_OPTION_HELP}, added to the list`)
      .action(async (options: { json?: boolean; api?: string }) => {
        const { listApi } = await import('./api-list.js');
        context.setExitCode(listApi(options, context.io));
      });
  },
};
