/**
 * `cantrip compile <file.spell> [-o out.spb]`: compile source to a bytecode
 * file that `cantrip run` and the game runtime load (and verify) later.
 * Calls are checked against --api, else the API of the cantrip.json above
 * the file.
 */
import type { Command } from 'commander';
import { API_OPTION_FLAGS, API_OPTION_HELP, cliHostSpecs } from '../hosts.js';
import { writeSpb } from '../../vm/spb.js';
import type { CliCommand, CommandContext } from '../command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { describeFsError, readSpellInput } from '../input.js';
import { writeFileWhole, type CliIO } from '../io.js';
import { loadModule } from '../load-module.js';
import { loadProject } from '../project-config.js';
import type { HostFunctionSpec } from '../../vm/host.js';

interface CompileOptions {
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
        context.setExitCode(await compileFile(file, options.output ?? defaultOutputPath(file), options.api, context.io));
      });
  },
};

/** The API of the file's cantrip.json (the built-in one without); a config that cannot be read stops the compile. */
function projectHosts(file: string, io: CliIO): readonly HostFunctionSpec[] {
  const project = loadProject(file, io);
  if (project.problems.length > 0) throw new CliFailure(`cantrip: ${project.problems.join('\ncantrip: ')}`, EXIT.dataError);
  return project.hosts;
}

/** `fire.spell` → `fire.spb`; any other name gets `.spb` appended, so the source is never overwritten. */
export function defaultOutputPath(file: string): string {
  return file.endsWith('.spell') ? file.slice(0, -'.spell'.length) + '.spb' : file + '.spb';
}

async function compileFile(file: string, output: string, api: string | undefined, io: CliIO): Promise<number> {
  const hosts = api === undefined ? projectHosts(file, io) : cliHostSpecs(api, io);
  const input = readSpellInput(file, io);
  if (input.kind === 'bytecode') {
    throw new CliFailure(`cantrip: ${file} is already compiled bytecode; compile takes a .spell source file`, EXIT.dataError);
  }
  const module = await loadModule(input, hosts);
  const bytes = writeSpb(module);
  try {
    (io.writeFile ?? writeFileWhole)(output, bytes);
  } catch (error) {
    throw new CliFailure(`cantrip: cannot write '${output}': ${describeFsError(error)}`, EXIT.cantCreate);
  }
  return EXIT.ok;
}
