/**
 * The compiler's diagnostics as editors show them: a range of offsets that
 * is never empty (an error "at end" or at a zero-width place underlines the
 * word there, or the last character of the line), and the suggestion a quick
 * fix puts in its place.
 */
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { LineIndex } from './text.js';

export interface ServiceDiagnostic {
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  /** The replacement for [start, end) a quick fix offers ("did you mean 'wisdom'?"). */
  readonly suggestion?: string;
}

export function serviceDiagnostic(d: Diagnostic, lines: LineIndex): ServiceDiagnostic {
  const { start, end } = visibleRange(lines, lines.offsetAt(d.line, d.column), lines.offsetAt(d.endLine, d.endColumn));
  const base = { severity: d.severity, message: d.message, start, end };
  return d.suggestion === undefined ? base : { ...base, suggestion: d.suggestion };
}

/** A zero-width span would be invisible: widen it to the word there, the next character, or the line's last one. */
function visibleRange(lines: LineIndex, start: number, end: number): { start: number; end: number } {
  if (end > start) return { start, end };
  const text = lines.text;
  const word = /^\w+/.exec(text.slice(start, start + 200));
  if (word) return { start, end: start + word[0].length };
  if (start < text.length && text[start] !== '\n') return { start, end: start + 1 };
  // At the end of a line (or of the file): the line's last character, if it has one.
  if (start > 0 && text[start - 1] !== '\n') return { start: start - 1, end: start };
  return { start, end: start };
}
