/**
 * The event table in docs/runtime.md is generated from the declarations
 * (built-in-events.ts), and a test keeps the two equal: one place defines
 * each event type.
 */

import { withGeneratedSection } from '../generated-doc.js';
import { fieldTypeText, type EventDeclaration, type EventField } from './event-declaration.js';

export const EVENTS_BEGIN = '<!-- events:begin (generated from runtime/events/built-in-events.ts; do not edit) -->';
export const EVENTS_END = '<!-- events:end -->';

function fieldText(name: string, field: EventField): string {
  return `\`${name}\`: ${fieldTypeText(field)}${field.doc ? ` (${field.doc})` : ''}`;
}

export function renderEventTable(events: readonly EventDeclaration[]): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = events.map((d) => {
    const fields = Object.entries(d.fields).map(([name, field]) => fieldText(name, field));
    const kept = [d.keptBySnapshots ? '' : 'not kept by snapshots', d.droppable ? '' : 'never dropped by the step cap'].filter((t) => t !== '');
    return `| \`${d.type}\` | ${cell(d.doc)} | ${cell(fields.join('; ') || '—')} | ${kept.join('; ') || '—'} |`;
  });
  return ['| type | what happened | fields | |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** Replace the generated section of a document with the current table. */
export function withEventTable(doc: string, events: readonly EventDeclaration[]): string {
  return withGeneratedSection(doc, EVENTS_BEGIN, EVENTS_END, renderEventTable(events));
}
