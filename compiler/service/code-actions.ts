/**
 * Quick fixes: a diagnostic that carries a suggestion (a misspelt property,
 * variable or host function: "did you mean 'wisdom'?") offers to put it in
 * place of the misspelt name.
 */
import type { ServiceDiagnostic } from './diagnostics.js';
import type { SpellDocument } from './document.js';
import type { TextEdit } from './navigation.js';

export interface QuickFix {
  readonly title: string;
  readonly diagnostic: ServiceDiagnostic;
  readonly edit: TextEdit;
}

/** The quick fixes for the diagnostics that touch [start, end]. */
export function quickFixes(doc: SpellDocument, start: number, end: number): QuickFix[] {
  return doc.diagnostics
    .filter((d) => d.suggestion !== undefined && d.start <= end && start <= d.end)
    .map((d) => ({ title: `Change to '${d.suggestion}'`, diagnostic: d, edit: { start: d.start, end: d.end, newText: d.suggestion! } }));
}
