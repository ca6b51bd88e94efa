import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENTITY_FIELDS } from './entity-fields.js';
import { renderEntityFieldTable, withEntityFieldTable } from './entity-field-doc.js';

const docUrl = new URL('../../docs/runtime.md', import.meta.url);

describe('docs/runtime.md', () => {
  it('lists the built-in entity properties exactly as entity-fields.ts declares them', () => {
    const doc = readFileSync(docUrl, 'utf8');
    const current = withEntityFieldTable(doc, ENTITY_FIELDS);
    // UPDATE_DOCS=1 npx vitest run runtime/entities/entity-field-doc.test.ts rewrites the section.
    if (process.env.UPDATE_DOCS === '1' && current !== doc) writeFileSync(docUrl, current);
    expect(doc).toBe(current);
    expect(doc).toContain('| `health` | Current health; the entity dies at 0. | clamped to 0..maxHealth; 0 kills;');
    expect(renderEntityFieldTable(ENTITY_FIELDS).split('\n')).toHaveLength(ENTITY_FIELDS.length + 2);
  });
});
