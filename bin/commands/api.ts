/**
 * `cantrip api [--json] [--api game-api.json]`: the host API spells can call
 * — the built-ins (core and world), plus a game's declared functions when
 * --api names a declaration file (which also checks that file). `--json`
 * prints it in the declaration format `--api` reads, so a game can start its
 * own file from it; without it, one signature and doc line per function.
 */
import type { Command } from 'commander';
import { hostApiDeclaration } from '../../vm/host-api-json.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { API_OPTION_FLAGS, API_OPTION_HELP, cliHostSpecs } from '../hosts.js';
import { terminalSafe } from '../terminal-text.js';

export const apiCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('api')
      .description('print the host functions spells can call (--json: as a host API declaration)')
      .option('--json', 'print the declaration JSON that --api reads')
      .option(API_OPTION_FLAGS, `${API_OPTION_HELP}, added to the list`)
      .action((options: { json?: boolean; api?: string }) => {
        const specs = cliHostSpecs(options.api, context.io);
        context.io.stdout(options.json ? JSON.stringify(hostApiDeclaration(specs), null, 2) + '\n' : specs.map(describeSpec).join('\n') + '\n');
        context.setExitCode(EXIT.ok);
      });
  },
};

/** One signature and its doc line. The names are identifiers and the types a fixed set (the schema's); the doc is free text from the file, so it is escaped. */
function describeSpec(spec: HostFunctionSpec): string {
  const params = spec.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`).join(', ');
  return `${spec.name}(${params}) → ${spec.returns}\n    ${terminalSafe(spec.doc)}`;
}
