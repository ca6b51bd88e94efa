/**
 * What a CLI command is: something that registers itself on the commander
 * program. Each command lives in its own file under bin/commands/ and is
 * listed once in bin/commands/index.ts.
 */
import type { Command } from 'commander';
import type { CliIO } from './io.js';

export interface CommandContext {
  readonly io: CliIO;
  /** Records the exit code of the command that ran. Failures are thrown as CliFailure instead. */
  setExitCode(code: number): void;
}

export interface CliCommand {
  register(program: Command, context: CommandContext): void;
}

/** The option every command that compiles or verifies takes (read by bin/api-file.ts). */
export const API_OPTION_FLAGS = '--api <file>';
export const API_OPTION_HELP = "a JSON declaration of the game's own host functions (the format `cantrip api --json` prints)";
