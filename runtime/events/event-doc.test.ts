import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_EVENTS } from './built-in-events.js';
import { renderEventTable, withEventTable } from './event-doc.js';

const docUrl = new URL('../../docs/runtime.md', import.meta.url);

describe('docs/runtime.md', () => {
  it('lists the event types exactly as built-in-events.ts declares them', () => {
    const doc = readFileSync(docUrl, 'utf8');
    const current = withEventTable(doc, BUILT_IN_EVENTS);
    // UPDATE_DOCS=1 npx vitest run runtime/events/event-doc.test.ts rewrites the section.
    if (process.env.UPDATE_DOCS === '1' && current !== doc) writeFileSync(docUrl, current);
    expect(doc).toBe(current);
    expect(doc).toContain("| `aoi` | A subject entered, moved inside or left an observer’s range");
    expect(renderEventTable(BUILT_IN_EVENTS).split('\n')).toHaveLength(BUILT_IN_EVENTS.length + 2);
  });
});
