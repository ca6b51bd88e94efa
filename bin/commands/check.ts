/**
 * `cantrip check <files or folders…>`: report every diagnostic (errors and
 * warnings) of each file without running anything. A folder stands for the
 * .spell files in it and below it (not in node_modules or dot-folders).
 * Three output formats:
 *   pretty (default) — location, source line and carets, for people;
 *   clox             — `[line N] Error at 'x': message`, as clox prints;
 *   json             — one object for tools (editors, CI annotations).
 * Diagnostics go to stdout (they are what was asked for); exit 65 if any error.
 * The host API and breeds come from --api / --breeds, else from the
 * cantrip.json above each file (bin/project-config.ts).
 * The checking is ./check-files.ts, loaded when the command runs.
 */
import { Option, type Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, type CliCommand, type CommandContext } from '../command.js';
import type { CheckOptions } from './check-files.js';

export const checkCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('check')
      .description('report errors and warnings in spell files without running them')
      .argument('<paths...>', '.spell or .spb files, or folders of .spell files')
      .option('--json', 'print machine-readable diagnostics (same as --format json)')
      .option(API_OPTION_FLAGS, API_OPTION_HELP)
      .option('--breeds <file>', "a breeds JSON file: warn about entity properties no breed defines ('did you mean …?')")
      .addOption(
        new Option('--format <format>', 'output format').choices(['pretty', 'clox', 'json']).default('pretty'),
      )
      .action(async (paths: string[], options: CheckOptions) => {
        const { checkFiles } = await import('./check-files.js');
        context.setExitCode(await checkFiles(paths, options, context.io));
      });
  },
};
