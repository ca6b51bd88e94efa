/**
 * `cantrip compile <file.spell> [-o out.spb]`: compile source to a bytecode
 * file that `cantrip run` and the game runtime load (and verify) later.
 * Calls are checked against --api, else the API of the cantrip.json above
 * the file.
 * Warnings are printed to stderr as `check` prints them, with the note that
 * says to pass `--api` for names the compiler does not know (docs/cli.md).
 * The work is ./compile-file.ts, loaded when the command runs.
 */
import type { Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, type CliCommand, type CommandContext } from '../command.js';

export interface CompileOptions {
  readonly output?: string;
  readonly api?: string;
}

export const compileCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('compile')
      .description('compile a .spell file to .spb bytecode')
      .argument('<file>', 'the .spell source file')
      .option('-o, --output <file>', 'where to write the bytecode (default: the source name with .spb)')
      .option(API_OPTION_FLAGS, API_OPTION_HELP)
      .action(async (file: string, options: CompileOptions) => {
        const { compileFile, defaultOutputPath } = await import('./compile-file.js');
        context.setExitCode(await compileFile(file, options.output ?? defaultOutputPath(file), options.api, context.io));
      });
  },
};
