/**
 * The human format of `cantrip check`: a gcc-style location line an editor
 * can jump to, then the source line with carets under the offending token.
 *
 *   fire.spell:3:11: error: Expect expression.
 *      3 | print 1 + ;
 *        |           ^
 */
import type { Diagnostic } from '../compiler/diagnostics.js';

/** Lines longer than this are shown as a window around the error (a 1 MB string literal stays readable). */
const MAX_SHOWN_WIDTH = 120;
const CONTEXT_BEFORE = 40;

export function formatCodeFrame(file: string, source: string, d: Diagnostic): string {
  const header = `${file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
  const lineText = sourceLine(source, d.line);
  if (lineText === null) return header;
  const gutter = String(d.line);
  const pad = ' '.repeat(gutter.length);
  const { shown, caretStart, caretWidth } = windowAround(lineText, d);
  const caretIndent = [...shown.slice(0, caretStart)].map((c) => (c === '\t' ? '\t' : ' ')).join('');
  return [header, ` ${gutter} | ${shown}`, ` ${pad} | ${caretIndent}${'^'.repeat(caretWidth)}`].join('\n');
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
