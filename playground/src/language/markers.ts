/**
 * Compiler diagnostics and runtime errors as editor markers. Plain data in
 * Monaco's shape (1-based lines and columns); the editor module only has to
 * map the severity.
 */
import type { Diagnostic } from '../../../compiler/diagnostics.js';

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

/**
 * A zero-width or out-of-range span would be invisible; widen it to the word at
 * that position, or the last character of the line (errors "at end").
 */
function visibleSpan(lines: readonly string[], line: number, column: number, endLine: number, endColumn: number) {
  const lineCount = Math.max(1, lines.length);
  const l = clamp(line, 1, lineCount);
  const text = lineText(lines, l);
  let c = clamp(column, 1, text.length + 1);
  let el = clamp(endLine, l, lineCount);
  let ec = clamp(endColumn, 1, lineText(lines, el).length + 1);
  if (el === l && ec <= c) {
    const word = /^\w+/.exec(text.slice(c - 1));
    if (word) ec = c + word[0].length;
    else if (c <= text.length) ec = c + 1;
    else if (text.length > 0) {
      c = text.length;
      ec = text.length + 1;
    } else ec = c;
    el = l;
  }
  return { startLineNumber: l, startColumn: c, endLineNumber: el, endColumn: ec };
}

export function markersFromDiagnostics(diagnostics: readonly Diagnostic[], source: string): MarkerData[] {
  const lines = source.split('\n');
  return diagnostics.map((d) => ({
    severity: d.severity,
    message: d.message,
    source: 'compiler',
    ...visibleSpan(lines, d.line, d.column, d.endLine, d.endColumn),
  }));
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
