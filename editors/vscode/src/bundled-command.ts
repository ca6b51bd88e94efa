/**
 * Runs one `cantrip` command as a program of its own, for the programs the
 * extension carries (build.mjs bundles each with what it uses): the command
 * line is the one `cantrip` takes, parsed, answered and failed by the CLI's
 * own runProgram, so a bundled program behaves as the installed CLI does.
 */
import type { CliCommand } from '../../../bin/command.js';
import type { CliIO } from '../../../bin/io.js';
import { runProgram } from '../../../bin/program.js';

// A protocol server owns standard output; it writes there only through its connection.
const io: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

export function runBundledCommand(command: CliCommand): void {
  void runProgram([command], process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
