/**
 * `cantrip disasm <file>`: the clox-style listing of a spell's bytecode, from
 * source (compiled first) or from a .spb file (verified first). The listing
 * is made by ./disasm-file.ts, loaded when the command runs.
 */
import type { Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, type CliCommand, type CommandContext } from '../command.js';

export const disasmCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('disasm')
      .description('print the bytecode of a .spell or .spb file')
      .argument('<file>', 'the .spell or .spb file')
      .option(API_OPTION_FLAGS, API_OPTION_HELP)
      .option('--compiled', 'print the JavaScript the compiled tier runs for each function, instead of the bytecode')
      .action(async (file: string, options: { api?: string; compiled?: boolean }) => {
        const { disasmFile } = await import('./disasm-file.js');
        context.setExitCode(await disasmFile(file, options, context.io));
      });
  },
};
