/**
 * Compile diagnostics: what the compiler reports instead of throwing.
 */

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  readonly severity: Severity;
  /** In the book's wording where the book has one ("Expect ';' after value."). */
  readonly message: string;
  /** 1-based line and column of the first character, and of the character after the last. */
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  /** The offending token's text; null for "at end"; '' for lexical errors that have no "at" part. */
  readonly token: string | null;
  /** A name that would fix the mistake in place of the span ("did you mean 'wisdom'?"): the editors' quick fix. */
  readonly suggestion?: string;
  /**
   * The line clox names, when the range points elsewhere: a missing ';' is
   * shown right after the token that lacks it (the range), while clox
   * reports it on the line of the token found instead (`token`).
   */
  readonly cloxLine?: number;
}

/** clox's format: `[line N] Error at 'x': message`, `[line N] Error at end: message`, `[line N] Error: message`. */
export function formatDiagnosticClox(d: Diagnostic): string {
  const kind = d.severity === 'error' ? 'Error' : 'Warning';
  const where = d.token === null ? ' at end' : d.token === '' ? '' : ` at '${d.token}'`;
  return `[line ${d.cloxLine ?? d.line}] ${kind}${where}: ${d.message}`;
}
