/**
 * `cantrip fmt [--check | --write] [--indent N] <files…>`: the canonical
 * layout of spell files (compiler/format/).
 *
 *   no flag   print each file's formatted text to stdout;
 *   --check   print the names of the files that are not formatted, exit 1 if any;
 *   --write   rewrite the files that are not formatted, printing their names.
 *
 * A file with syntax errors is left alone: its diagnostics go to stderr as
 * code frames and the exit code is 65; the other files are still formatted.
 * A file that cannot be read makes the exit code 66 (it wins over 65).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { formatCodeFrame } from '../../compiler/code-frame.js';
import { formatSource, MAX_INDENT_WIDTH } from '../../compiler/format/index.js';
import type { CliCommand, CommandContext } from '../command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { describeFsError, readSpellInput } from '../input.js';
import { writeFileWhole, type CliIO } from '../io.js';

interface FmtOptions {
  readonly check?: boolean;
  readonly write?: boolean;
  readonly indent?: number;
}

/** What happened to one file. */
type Outcome = 'unchanged' | 'changed' | 'refused' | 'unreadable';

export const fmtCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('fmt')
      .description('format spell files in the one canonical style')
      .argument('<files...>', '.spell source files')
      .option('--check', 'list the files that are not formatted and exit 1 if there are any (changes nothing)')
      .option('--write', 'rewrite the files that are not formatted, listing them')
      .option('--indent <n>', `spaces per indentation level, 1 to ${MAX_INDENT_WIDTH} (default 2)`, parseIndent)
      .action((files: string[], options: FmtOptions) => {
        if (options.check && options.write) throw new CliFailure('cantrip fmt: use --check or --write, not both', EXIT.usage);
        const outcomes = files.map((file) => formatFile(file, options, context.io));
        context.setExitCode(exitCodeFor(outcomes, options));
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

function formatFile(file: string, options: FmtOptions, io: CliIO): Outcome {
  let source: string;
  try {
    const input = readSpellInput(file, io);
    if (input.kind === 'bytecode') throw new CliFailure(`cantrip: ${file} is compiled bytecode; fmt takes .spell source files`, EXIT.dataError);
    source = input.text;
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    io.stderr(error.message + '\n');
    return error.exitCode === EXIT.noInput ? 'unreadable' : 'refused';
  }
  const result = formatSource(source, options.indent === undefined ? {} : { indentWidth: options.indent });
  if (!result.ok) {
    io.stderr(result.diagnostics.map((d) => formatCodeFrame(file, source, d)).join('\n\n') + '\n');
    return 'refused';
  }
  const changed = result.text !== source;
  if (options.check) {
    if (changed) io.stdout(file + '\n');
  } else if (options.write) {
    if (changed) {
      writeFormatted(file, result.text, io);
      io.stdout(file + '\n');
    }
  } else {
    io.stdout(result.text);
  }
  return changed ? 'changed' : 'unchanged';
}

function writeFormatted(file: string, text: string, io: CliIO): void {
  try {
    (io.writeFile ?? writeFileWhole)(file, new TextEncoder().encode(text));
  } catch (error) {
    throw new CliFailure(`cantrip: cannot write '${file}': ${describeFsError(error)}`, EXIT.cantCreate);
  }
}

/** 66 if a file could not be read, else 65 if one could not be formatted, else 1 if --check found changes, else 0. */
function exitCodeFor(outcomes: readonly Outcome[], options: FmtOptions): number {
  if (outcomes.includes('unreadable')) return EXIT.noInput;
  if (outcomes.includes('refused')) return EXIT.dataError;
  if (options.check && outcomes.includes('changed')) return EXIT.checkFailed;
  return EXIT.ok;
}
