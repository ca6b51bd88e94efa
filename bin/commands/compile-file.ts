/** What `cantrip compile` does (bin/commands/compile.ts declares the command). */
import { formatCodeFrame } from '../../compiler/code-frame.js';
import type { Diagnostic } from '../../compiler/diagnostics.js';
import { writeSpb } from '../../vm/spb.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { describeFsError, readSpellInput } from '../input.js';
import { writeFileWhole, type CliIO } from '../io.js';
import { loadModule } from '../load-module.js';
import { undefinedNamesNote } from '../unknown-names.js';
import { Projects } from '../project-config.js';

/** Each warning with its code frame, then the note about undefined names (the --api hint). */
function renderWarnings(file: string, source: string, warnings: readonly Diagnostic[], api: string | undefined): string {
  const blocks = warnings.map((d) => formatCodeFrame(file, source, d));
  const note = undefinedNamesNote(warnings, api);
  if (note !== null) blocks.push(note);
  return blocks.join('\n\n') + '\n';
}

/** `fire.spell` → `fire.spb`; any other name gets `.spb` appended, so the source is never overwritten. */
export function defaultOutputPath(file: string): string {
  return file.endsWith('.spell') ? file.slice(0, -'.spell'.length) + '.spb' : file + '.spb';
}

export async function compileFile(file: string, output: string, api: string | undefined, io: CliIO): Promise<number> {
  // --api, else the file's cantrip.json (the built-in API without one); a config that cannot be used stops the compile.
  const project = new Projects(io, { api }).ofOrFail(file);
  const apiFile = project.apiFile ?? undefined;
  const input = readSpellInput(file, io);
  if (input.kind === 'bytecode') {
    throw new CliFailure(`cantrip: ${file} is already compiled bytecode; compile takes a .spell source file`, EXIT.dataError);
  }
  // Warnings go to stderr, as check prints them: the bytecode is still written (exit 0).
  const module = await loadModule(input, project.hosts, (warnings) => io.stderr(renderWarnings(file, input.text, warnings, apiFile)));
  const bytes = writeSpb(module);
  try {
    (io.writeFile ?? writeFileWhole)(output, bytes);
  } catch (error) {
    throw new CliFailure(`cantrip: cannot write '${output}': ${describeFsError(error)}`, EXIT.cantCreate);
  }
  return EXIT.ok;
}
