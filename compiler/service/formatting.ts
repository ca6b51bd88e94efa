/**
 * Format Document: the formatter's canonical layout (compiler/format) as
 * one edit over the whole text, or nothing when the text is already
 * formatted. Text with syntax errors is not formatted; the answer says why.
 */
import { formatSource, MAX_INDENT_WIDTH } from '../format/index.js';
import { MAX_ANALYSED_SOURCE, megabytes, type SpellDocument } from './document.js';
import type { TextEdit } from './navigation.js';

export type FormatEdits = { readonly ok: true; readonly edits: readonly TextEdit[] } | { readonly ok: false; readonly message: string };

/**
 * Larger files are not formatted in the editor: formatting one takes
 * seconds and a memory peak the editor's server keeps (`cantrip fmt`
 * formats files of any size).
 */
export const MAX_FORMATTED_SOURCE = MAX_ANALYSED_SOURCE;

export function formatEdits(doc: SpellDocument, indentWidth = 2): FormatEdits {
  if (doc.source.length > MAX_FORMATTED_SOURCE) {
    return { ok: false, message: `This file is ${megabytes(doc.source.length)}; the editor formats files up to ${megabytes(MAX_FORMATTED_SOURCE)} (run \`cantrip fmt\` on it).` };
  }
  const width = Number.isInteger(indentWidth) ? Math.min(Math.max(1, indentWidth), MAX_INDENT_WIDTH) : 2;
  const result = formatSource(doc.source, { indentWidth: width });
  if (!result.ok) {
    const first = result.diagnostics[0];
    return { ok: false, message: `Cannot format a file with syntax errors${first ? ` (line ${first.line}: ${first.message})` : ''}.` };
  }
  return { ok: true, edits: result.text === doc.source ? [] : [{ start: 0, end: doc.source.length, newText: result.text }] };
}
