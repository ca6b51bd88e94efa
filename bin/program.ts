/**
 * The `cantrip` program over a given list of commands: the CLI runs it with
 * every command (bin/cli.ts); the VS Code extension's bundled `cantrip` runs
 * it with `lsp` and `dap` alone (editors/vscode/src/cantrip.ts), so that
 * bundle carries only what those need, with the same arguments, messages
 * and exit codes.
 *
 * Every failure ends here as a message and an exit code: usage errors (64)
 * from commander, CliFailures thrown by commands, and — should Cantrip itself
 * have a bug — an "internal error" line instead of a JS stack trace.
 */
import { Command, CommanderError } from 'commander';
import type { CliCommand } from './command.js';
import { CliFailure, EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { packageVersion } from './package-info.js';

/** Runs the command line `argv` (the arguments after the program name) with `commands`; the exit code. */
export async function runProgram(commands: readonly CliCommand[], argv: readonly string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  try {
    const program = buildProgram(commands, io, (code) => {
      exitCode = code;
    });
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportFailure(error, io);
  }
}

function buildProgram(commands: readonly CliCommand[], io: CliIO, setExitCode: (code: number) => void): Command {
  const program = new Command('cantrip')
    .description('Cantrip: check, compile, disassemble and run spells; simulate a world.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError('(run `cantrip --help` for usage)');
  for (const command of commands) command.register(program, { io, setExitCode });
  return program;
}

function reportFailure(error: unknown, io: CliIO): number {
  if (error instanceof CommanderError) return commanderExitCode(error);
  if (error instanceof CliFailure) {
    if (error.message !== '') io.stderr(error.message + '\n');
    return error.exitCode;
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  io.stderr(
    `cantrip: internal error: ${firstLine(message)}\n` +
      'This is a bug in Cantrip, not in your spell. Please report it with the file that caused it.\n',
  );
  return EXIT.software;
}

/** Commander has already printed its message (or the help / version text). */
function commanderExitCode(error: CommanderError): number {
  const isInformational =
    error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0;
  return isInformational ? EXIT.ok : EXIT.usage;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? line.slice(0, 300) + '…' : line;
}
