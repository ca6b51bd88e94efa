/** What `cantrip disasm` prints (bin/commands/disasm.ts declares the command). */
import { disassemble } from '../../vm/disassembler.js';
import { compiledSource } from '../../vm/compiled/compile.js';
import type { Module } from '../../vm/module.js';
import { ObjFunction } from '../../vm/objects.js';
import { cliHostSpecs } from '../api-file.js';
import { EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { loadModule } from '../load-module.js';

export async function disasmFile(file: string, options: { readonly api?: string; readonly compiled?: boolean }, io: CliIO): Promise<number> {
  const hosts = cliHostSpecs(options.api, io);
  const module = await loadModule(readSpellInput(file, io), hosts);
  const listing = options.compiled === true ? compiledListing(module) : disassemble(module);
  io.stdout(listing.endsWith('\n') ? listing : listing + '\n');
  return EXIT.ok;
}

/** Each function's compiled JavaScript, headed by its name, as `cantrip run --tier compiled` would run it. */
function compiledListing(module: Module): string {
  return module.functions
    .map((proto, i) => {
      const source = compiledSource(module, new ObjFunction(proto, i, 1));
      return `// == ${proto.name === '' ? '<script>' : proto.name} (function ${i}, ${proto.code.length} words)\n${source ?? '// (runs on the interpreter only)'}\n`;
    })
    .join('\n');
}
