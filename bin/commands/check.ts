/**
 * `cantrip check <files…>`: report every diagnostic (errors and warnings) of
 * each file without running anything. Three output formats:
 *   pretty (default) — location, source line and carets, for people;
 *   clox             — `[line N] Error at 'x': message`, as clox prints;
 *   json             — one object for tools (editors, CI annotations).
 * Diagnostics go to stdout (they are what was asked for); exit 65 if any error.
 */
import { Option, type Command } from 'commander';
import { formatDiagnosticClox, type Diagnostic } from '../../compiler/diagnostics.js';
import { API_OPTION_FLAGS, API_OPTION_HELP, cliHostSpecs } from '../hosts.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import { formatCodeFrame } from '../../compiler/code-frame.js';
import type { CliCommand, CommandContext } from '../command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { decodeSourceText, readInputBytes, readSpellInput } from '../input.js';
import { BreedRegistry } from '../../runtime/entities/breeds.js';
import { BreedError } from '../../runtime/errors.js';
import type { CliIO } from '../io.js';
import { compileSource, loadBytecode } from '../load-module.js';

type Format = 'pretty' | 'clox' | 'json';

interface CheckOptions {
  readonly json?: boolean;
  readonly api?: string;
  readonly format: Format;
  readonly breeds?: string;
}

/** The outcome for one file: its diagnostics, or a problem that stopped it being checked at all. */
export interface FileReport {
  readonly file: string;
  readonly kind: 'source' | 'bytecode' | 'unreadable' | 'invalid';
  readonly diagnostics: readonly Diagnostic[];
  /** Why the file could not be checked (unreadable, not text, bad bytecode), with the exit code that implies. */
  readonly problem?: { readonly message: string; readonly exitCode: number };
  /** The source text, for code frames; not part of the JSON output. */
  readonly source?: string;
}

export const checkCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('check')
      .description('report errors and warnings in spell files without running them')
      .argument('<files...>', '.spell or .spb files')
      .option('--json', 'print machine-readable diagnostics (same as --format json)')
      .option(API_OPTION_FLAGS, API_OPTION_HELP)
      .option('--breeds <file>', "a breeds JSON file: warn about entity properties no breed defines ('did you mean …?')")
      .addOption(
        new Option('--format <format>', 'output format').choices(['pretty', 'clox', 'json']).default('pretty'),
      )
      .action(async (files: string[], options: CheckOptions) => {
        const hosts = cliHostSpecs(options.api, context.io);
        const entityProperties = options.breeds === undefined ? undefined : loadEntityProperties(options.breeds, context.io);
        const reports: FileReport[] = [];
        for (const file of files) reports.push(await checkFile(file, context.io, hosts, entityProperties));
        const format: Format = options.json ? 'json' : options.format;
        context.io.stdout(renderReports(reports, format));
        context.setExitCode(exitCodeFor(reports));
      });
  },
};

/** The property names the breeds file gives entities (plus the built-in ones); a bad file is a CliFailure. */
function loadEntityProperties(path: string, io: CliIO): string[] {
  const text = decodeSourceText(path, readInputBytes(path, io));
  try {
    return BreedRegistry.fromJson(text).entityPropertyNames();
  } catch (error) {
    if (error instanceof BreedError) throw new CliFailure(`${path}: ${error.message}`, EXIT.dataError);
    throw error;
  }
}

export async function checkFile(file: string, io: CliIO, hosts: readonly HostFunctionSpec[], entityProperties?: readonly string[]): Promise<FileReport> {
  try {
    const input = readSpellInput(file, io);
    if (input.kind === 'bytecode') {
      loadBytecode(file, input.bytes, hosts);
      return { file, kind: 'bytecode', diagnostics: [] };
    }
    const { diagnostics } = await compileSource(input.text, file, hosts, entityProperties);
    return { file, kind: 'source', diagnostics, source: input.text };
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    const kind = error.exitCode === EXIT.noInput ? 'unreadable' : 'invalid';
    return { file, kind, diagnostics: [], problem: { message: error.message, exitCode: error.exitCode } };
  }
}

/** 66 if a file could not be read, else 65 if anything is wrong, else 0. */
export function exitCodeFor(reports: readonly FileReport[]): number {
  if (reports.some((r) => r.problem?.exitCode === EXIT.noInput)) return EXIT.noInput;
  const anyError = reports.some((r) => r.problem !== undefined || r.diagnostics.some((d) => d.severity === 'error'));
  return anyError ? EXIT.dataError : EXIT.ok;
}

export function renderReports(reports: readonly FileReport[], format: Format): string {
  if (format === 'json') return JSON.stringify(toJson(reports), null, 2) + '\n';
  const blocks: string[] = [];
  for (const report of reports) {
    if (report.problem) blocks.push(report.problem.message);
    for (const d of report.diagnostics) {
      if (format === 'clox') blocks.push(`${report.file}: ${formatDiagnosticClox(d)}`);
      else blocks.push(formatCodeFrame(report.file, report.source ?? '', d));
    }
  }
  if (format === 'pretty') blocks.push(summary(reports));
  const separator = format === 'pretty' ? '\n\n' : '\n';
  return blocks.length === 0 ? '' : blocks.join(separator) + '\n';
}

function summary(reports: readonly FileReport[]): string {
  const counts = countDiagnostics(reports);
  const files = `${reports.length} file${reports.length === 1 ? '' : 's'}`;
  return `checked ${files}: ${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function countDiagnostics(reports: readonly FileReport[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const report of reports) {
    if (report.problem) errors++;
    for (const d of report.diagnostics) {
      if (d.severity === 'error') errors++;
      else warnings++;
    }
  }
  return { errors, warnings };
}

function toJson(reports: readonly FileReport[]): object {
  return {
    files: reports.map((r) => ({
      file: r.file,
      kind: r.kind,
      ...(r.problem ? { problem: r.problem.message } : {}),
      diagnostics: r.diagnostics.map((d) => ({
        severity: d.severity,
        message: d.message,
        line: d.line,
        column: d.column,
        endLine: d.endLine,
        endColumn: d.endColumn,
        token: d.token,
      })),
    })),
    ...countDiagnostics(reports),
  };
}
