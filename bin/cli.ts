/**
 * The `cantrip` command line. `main` takes the arguments after the program
 * name and an IO object and returns the exit code, so tests run it in-process;
 * bin/cantrip.js wires it to the real process. The program itself — parsing,
 * and every failure as a message and an exit code — is bin/program.ts.
 */
import { COMMANDS } from './commands/index.js';
import type { CliIO } from './io.js';
import { runProgram } from './program.js';

export type { CliIO } from './io.js';
export { EXIT } from './exit-codes.js';

export function main(argv: readonly string[], io: CliIO): Promise<number> {
  return runProgram(COMMANDS, argv, io);
}
