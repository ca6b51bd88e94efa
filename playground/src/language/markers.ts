/**
 * Compiler diagnostics and runtime errors as editor markers. Plain data in
 * Monaco's shape (1-based lines and columns); the editor module only has to
 * map the severity.
 */
import type { LineIndex, ServiceDiagnostic } from '../../../compiler/service/index.js';

export type MarkerSeverityName = 'error' | 'warning';

export interface MarkerData {
  readonly severity: MarkerSeverityName;
  readonly message: string;
  readonly startLineNumber: number;
  readonly startColumn: number;
  readonly endLineNumber: number;
  readonly endColumn: number;
  /** Where the marker comes from: 'compiler', 'runtime', 'breeds'. */
  readonly source: string;
}

/** 1-based line `n` of the text, '' when out of range. */
function lineText(lines: readonly string[], n: number): string {
  return lines[n - 1] ?? '';
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** The language service's diagnostics (never-empty offset ranges) in Monaco's 1-based lines and columns. */
export function markersFromDiagnostics(diagnostics: readonly ServiceDiagnostic[], lines: LineIndex): MarkerData[] {
  return diagnostics.map((d) => {
    const start = lines.positionAt(d.start);
    const end = lines.positionAt(d.end);
    return { severity: d.severity, message: d.message, source: 'compiler', startLineNumber: start.line, startColumn: start.column, endLineNumber: end.line, endColumn: end.column };
  });
}

/** A runtime error underlines the whole (trimmed) line it happened on. */
export function markerForLine(message: string, line: number, source: string, origin: string): MarkerData {
  const lines = source.split('\n');
  const l = clamp(line, 1, Math.max(1, lines.length));
  const text = lineText(lines, l);
  const first = text.length - text.trimStart().length + 1;
  const last = text.trimEnd().length + 1;
  return {
    severity: 'error',
    message,
    source: origin,
    startLineNumber: l,
    startColumn: first,
    endLineNumber: l,
    endColumn: Math.max(last, first + 1),
  };
}

/** `[line 3] Error at ';': Expect expression.` style text for the console. */
export function describeMarker(m: MarkerData): string {
  return `[line ${m.startLineNumber}:${m.startColumn}] ${m.severity === 'error' ? 'Error' : 'Warning'}: ${m.message}`;
}
