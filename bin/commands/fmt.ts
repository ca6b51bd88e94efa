/**
 * `cantrip fmt [--check | --write] [--indent N] <files or folders…>`: the
 * canonical layout of spell files (compiler/format/). A folder stands for the
 * .spell files in it and below it (not in node_modules or dot-folders).
 *
 *   no flag   print each file's formatted text to stdout;
 *   --check   print the names of the files that are not formatted, exit 1 if any;
 *   --write   rewrite the files that are not formatted, printing their names.
 *
 * --check and --write end with a summary line on stderr
 * (`12 files checked, 2 would change`).
 * A file with syntax errors is left alone: its diagnostics go to stderr as
 * code frames and the exit code is 65; the other files are still formatted.
 * A file or folder that cannot be read, or a folder with no .spell file,
 * makes the exit code 66 (it wins over 65).
 * The formatting is ./fmt-files.ts, loaded when the command runs.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_INDENT_WIDTH } from '../../compiler/format/widths.js';
import type { CliCommand, CommandContext } from '../command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import type { FmtOptions } from './fmt-files.js';

export const fmtCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('fmt')
      .description('format spell files in the one canonical style')
      .argument('<paths...>', '.spell source files, or folders of them')
      .option('--check', 'list the files that are not formatted and exit 1 if there are any (changes nothing)')
      .option('--write', 'rewrite the files that are not formatted, listing them')
      .option('--indent <n>', `spaces per indentation level, 1 to ${MAX_INDENT_WIDTH} (default 2)`, parseIndent)
      .action(async (paths: string[], options: FmtOptions) => {
        if (options.check && options.write) throw new CliFailure('cantrip fmt: use --check or --write, not both', EXIT.usage);
        const { formatFiles } = await import('./fmt-files.js');
        context.setExitCode(formatFiles(paths, options, context.io));
      });
  },
};

function parseIndent(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_INDENT_WIDTH) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_INDENT_WIDTH}`);
  }
  return n;
}
