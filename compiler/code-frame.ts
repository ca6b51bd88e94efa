/**
 * THE human format of a diagnostic (`cantrip check`, SpellsCompileError's
 * message, anything an embedder prints): a gcc-style location line an editor
 * can jump to, then the source line with carets under the offending token.
 *
 *   fire.spell:3:11: error: Expect expression.
 *      3 | print 1 + ;
 *        |           ^
 *
 * Exported from the package root; formatDiagnosticClox is the other format
 * (clox's `[line N] Error at 'x': …`, what the CLI's `run` prints, as clox does).
 */
import type { Diagnostic } from './diagnostics.js';

/** Lines longer than this are shown as a window around the error (a 1 MB string literal stays readable). */
const MAX_SHOWN_WIDTH = 120;
const CONTEXT_BEFORE = 40;

/** One diagnostic as `file:line:column: severity: message`, then the line and carets (just the first line when `source` lacks that line). */
export function formatCodeFrame(file: string, source: string, d: Diagnostic): string {
  const header = formatLocation(file, d);
  const lineText = sourceLine(source, d.line);
  if (lineText === null) return header;
  const gutter = String(d.line);
  const pad = ' '.repeat(gutter.length);
  const { shown, caretStart, caretWidth } = windowAround(lineText, d);
  const caretIndent = [...shown.slice(0, caretStart)].map((c) => (c === '\t' ? '\t' : ' ')).join('');
  return [header, ` ${gutter} | ${shown}`, ` ${pad} | ${caretIndent}${'^'.repeat(caretWidth)}`].join('\n');
}

/** Just the location line: `file:line:column: severity: message`. */
export function formatLocation(file: string, d: Diagnostic): string {
  return `${file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
}

/** Every diagnostic of a file, code frames separated by blank lines. */
export function formatDiagnostics(file: string, source: string, diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => formatCodeFrame(file, source, d)).join('\n\n');
}

/** The 1-based line of the source, without its line break; null when out of range. */
export function sourceLine(source: string, line: number): string | null {
  if (line < 1) return null;
  let start = 0;
  for (let i = 1; i < line; i++) {
    const next = source.indexOf('\n', start);
    if (next < 0) return null;
    start = next + 1;
  }
  let end = source.indexOf('\n', start);
  if (end < 0) end = source.length;
  if (end > start && source[end - 1] === '\r') end--;
  return source.slice(start, end);
}

interface Window {
  readonly shown: string;
  readonly caretStart: number;
  readonly caretWidth: number;
}

function windowAround(text: string, d: Diagnostic): Window {
  const column = Math.max(0, Math.min(d.column - 1, text.length));
  const lastColumn = d.endLine === d.line ? d.endColumn - 1 : text.length;
  const width = Math.max(1, lastColumn - column);
  if (text.length <= MAX_SHOWN_WIDTH) return { shown: text, caretStart: column, caretWidth: width };
  const start = Math.max(0, column - CONTEXT_BEFORE);
  const end = Math.min(text.length, start + MAX_SHOWN_WIDTH);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const caretStart = column - start + prefix.length;
  const visible = Math.max(1, Math.min(width, end - column));
  return { shown: prefix + text.slice(start, end) + suffix, caretStart, caretWidth: visible };
}
