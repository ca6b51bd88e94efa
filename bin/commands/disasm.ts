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
import { compiledSource } from '../../vm/compiled/compile.js';
import type { Module } from '../../vm/module.js';
import { ObjFunction } from '../../vm/objects.js';

/** Each function's compiled JavaScript, headed by its name, as `cantrip run --tier compiled` would run it. */
function compiledListing(module: Module): string {
  return module.functions
    .map((proto, i) => {
      const source = compiledSource(module, new ObjFunction(proto, i, 1));
      return `// == ${proto.name === '' ? '<script>' : proto.name} (function ${i}, ${proto.code.length} words)\n${source ?? '// (runs on the interpreter only)'}\n`;
    })
    .join('\n');
}

export const disasmCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('disasm')
      .description('print the bytecode of a .spell or .spb file')
      .argument('<file>', 'the .spell or .spb file')
      .option(API_OPTION_FLAGS, API_OPTION_HELP)
      .option('--compiled', 'print the JavaScript the compiled tier runs for each function, instead of the bytecode')
      .action(async (file: string, options: { api?: string; compiled?: boolean }) => {
        const hosts = cliHostSpecs(options.api, context.io);
        const module = await loadModule(readSpellInput(file, context.io), hosts);
        const listing = options.compiled === true ? compiledListing(module) : disassemble(module);
        context.io.stdout(listing.endsWith('\n') ? listing : listing + '\n');
        context.setExitCode(EXIT.ok);
      });
  },
};
