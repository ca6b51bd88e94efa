/** What `cantrip disasm` prints (bin/commands/disasm.ts declares the command). */
import { disassemble } from '../../vm/disassembler.js';
import { compiledSource } from '../../vm/compiled/compile.js';
import type { Module } from '../../vm/module.js';
import { ObjFunction } from '../../vm/objects.js';
import { EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { loadModule } from '../load-module.js';
import { Projects } from '../project-config.js';

export async function disasmFile(file: string, options: { readonly api?: string; readonly compiled?: boolean }, io: CliIO): Promise<number> {
  // --api, else the file's cantrip.json, as compile reads them: the listing is of the bytecode compile writes.
  const module = await loadModule(readSpellInput(file, io), new Projects(io, { api: options.api }).ofOrFail(file).hosts);
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
