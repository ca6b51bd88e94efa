/**
 * The table of entity properties in docs/runtime.md ("Entities in spells") is
 * generated from the declarations (entity-fields.ts), and a test keeps the
 * two equal: one place defines each built-in field.
 */

import { withGeneratedSection } from '../generated-doc.js';
import type { EntityFieldDeclaration } from './entity-fields.js';

export const FIELDS_BEGIN = '<!-- entity-fields:begin (generated from runtime/entities/entity-fields.ts; do not edit) -->';
export const FIELDS_END = '<!-- entity-fields:end -->';

export function renderEntityFieldTable(fields: readonly EntityFieldDeclaration[]): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = fields.map((f) => {
    const write = f.writable ? (f.write ?? 'sets it') : 'read-only';
    const kept = f.storage === null ? 'computed' : `${f.storage}Array`;
    const notes = [f.stat ? '`world.stat`' : '', f.buffable ? 'buffable' : ''].filter((t) => t !== '');
    return `| \`${f.name}\` | ${cell(f.doc)} | ${cell(write)} | ${kept} | ${notes.join(', ') || '—'} |`;
  });
  return ['| property | read | write | pool | |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** Replace the generated section of a document with the current table. */
export function withEntityFieldTable(doc: string, fields: readonly EntityFieldDeclaration[]): string {
  return withGeneratedSection(doc, FIELDS_BEGIN, FIELDS_END, renderEntityFieldTable(fields));
}
