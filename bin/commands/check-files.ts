/** What `cantrip check` does (bin/commands/check.ts declares the command). */
import { formatDiagnosticClox, type Diagnostic } from '../../compiler/diagnostics.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import { formatCodeFrame } from '../../compiler/code-frame.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { compileSource, loadBytecode } from '../load-module.js';
import { undefinedNamesNote } from '../unknown-names.js';
import { Projects, projectDiagnostics, type Project } from '../project-config.js';
import { expandSpellPaths } from '../spell-paths.js';

export type Format = 'pretty' | 'clox' | 'json';

/** The options `cantrip check` takes (bin/commands/check.ts declares them). */
export interface CheckOptions {
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
  /** The API file its calls were checked against (--api, or the one its cantrip.json names), for the note under undefined names. */
  readonly apiFile?: string;
  /** Said under undefined names in place of the usual note (`serve` has its own reason), when set. */
  readonly undefinedNote?: string;
}

/** Checks the files named, and the .spell files in the folders named (bin/spell-paths.ts), and prints their reports; the exit code. */
export async function checkFiles(paths: readonly string[], options: CheckOptions, io: CliIO): Promise<number> {
  // Files named on the command line win over cantrip.json's; a bad one stops the command.
  const projects = new Projects(io, options);
  const { files, problems } = expandSpellPaths(paths);
  const reports: FileReport[] = problems.map((p) => ({ file: p.path, kind: 'unreadable', diagnostics: [], problem: { message: p.message, exitCode: EXIT.noInput } }));
  for (const file of files) {
    const project = projects.of(file);
    const report = await checkFile(file, io, project.hosts, project.breeds?.entityPropertyNames());
    reports.push(withProjectProblems(project.apiFile === null ? report : { ...report, apiFile: project.apiFile }, project));
  }
  const format: Format = options.json ? 'json' : options.format;
  io.stdout(renderReports(reports, format));
  return exitCodeFor(reports);
}

/** A broken cantrip.json is an error on each file it governs. */
function withProjectProblems(report: FileReport, project: Project): FileReport {
  if (project.problems.length === 0 || report.problem) return report;
  return { ...report, diagnostics: [...projectDiagnostics(project), ...report.diagnostics] };
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

/** Each report's `apiFile` shapes the note under undefined names in the pretty format. */
export function renderReports(reports: readonly FileReport[], format: Format): string {
  if (format === 'json') return JSON.stringify(toJson(reports), null, 2) + '\n';
  const blocks: string[] = [];
  for (const report of reports) {
    if (report.problem) blocks.push(report.problem.message);
    for (const d of report.diagnostics) {
      if (format === 'clox') blocks.push(`${report.file}: ${formatDiagnosticClox(d)}`);
      else blocks.push(formatCodeFrame(report.file, report.source ?? '', d));
    }
    const note = format !== 'pretty' ? null : (report.undefinedNote ?? undefinedNamesNote(report.diagnostics, report.apiFile));
    if (note !== null) blocks.push(note);
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
