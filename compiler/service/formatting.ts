/**
 * Format Document: the formatter's canonical layout (compiler/format) as
 * one edit over the whole text, or nothing when the text is already
 * formatted. Text with syntax errors is not formatted; the answer says why.
 */
import { formatSource, MAX_INDENT_WIDTH } from '../format/index.js';
import type { SpellDocument } from './document.js';
import type { TextEdit } from './navigation.js';

export type FormatEdits = { readonly ok: true; readonly edits: readonly TextEdit[] } | { readonly ok: false; readonly message: string };

export function formatEdits(doc: SpellDocument, indentWidth = 2): FormatEdits {
  const width = Number.isInteger(indentWidth) ? Math.min(Math.max(1, indentWidth), MAX_INDENT_WIDTH) : 2;
  const result = formatSource(doc.source, { indentWidth: width });
  if (!result.ok) {
    const first = result.diagnostics[0];
    return { ok: false, message: `Cannot format a file with syntax errors${first ? ` (line ${first.line}: ${first.message})` : ''}.` };
  }
  return { ok: true, edits: result.text === doc.source ? [] : [{ start: 0, end: doc.source.length, newText: result.text }] };
}
