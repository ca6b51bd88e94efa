/** What `cantrip fmt` does (bin/commands/fmt.ts declares the command). */
import { formatCodeFrame } from '../../compiler/code-frame.js';
import { formatSource } from '../../compiler/format/index.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { describeFsError, readSpellInput } from '../input.js';
import { writeFileWhole, type CliIO } from '../io.js';
import { expandSpellPaths } from '../spell-paths.js';

/** The options `cantrip fmt` takes (bin/commands/fmt.ts declares them). */
export interface FmtOptions {
  readonly check?: boolean;
  readonly write?: boolean;
  readonly indent?: number;
}

/** What happened to one file. */
type Outcome = 'unchanged' | 'changed' | 'refused' | 'unreadable';

/**
 * Formats each file named, and the .spell files in each folder named
 * (bin/spell-paths.ts), as the options say; the exit code. --check and
 * --write end with a one-line summary on stderr (stdout keeps to the file
 * names, for scripts).
 */
export function formatFiles(paths: readonly string[], options: FmtOptions, io: CliIO): number {
  const { files, problems } = expandSpellPaths(paths);
  for (const problem of problems) io.stderr(problem.message + '\n');
  const outcomes = files.map((file) => formatFile(file, options, io));
  if (options.check || options.write) io.stderr(summary(outcomes, options) + '\n');
  return exitCodeFor([...outcomes, ...problems.map((): Outcome => 'unreadable')], options);
}

/** `12 files checked, 2 would change` (--check) or `… 2 reformatted` (--write), then any failures. */
function summary(outcomes: readonly Outcome[], options: FmtOptions): string {
  const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length;
  const parts = [`${outcomes.length} file${outcomes.length === 1 ? '' : 's'} checked`, `${count('changed')} ${options.check ? 'would change' : 'reformatted'}`];
  if (count('refused') > 0) parts.push(`${count('refused')} could not be formatted`);
  if (count('unreadable') > 0) parts.push(`${count('unreadable')} could not be read`);
  return parts.join(', ');
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
