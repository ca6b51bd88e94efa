/**
 * `cantrip disasm <file>`: the clox-style listing of a spell's bytecode, from
 * source (compiled first) or from a .spb file (verified first).
 */
import type { Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, cliHostSpecs } from '../hosts.js';
import { disassemble } from '../../vm/disassembler.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import { loadModule } from '../load-module.js';

export const disasmCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('disasm')
      .description('print the bytecode of a .spell or .spb file')
      .argument('<file>', 'the .spell or .spb file')
      .option(API_OPTION_FLAGS, API_OPTION_HELP)
      .action(async (file: string, options: { api?: string }) => {
        const hosts = cliHostSpecs(options.api, context.io);
        const module = await loadModule(readSpellInput(file, context.io), hosts);
        const listing = disassemble(module);
        context.io.stdout(listing.endsWith('\n') ? listing : listing + '\n');
        context.setExitCode(EXIT.ok);
      });
  },
};
