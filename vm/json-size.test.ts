import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSizeProblem } from './json-size.js';

describe('jsonSizeProblem', () => {
  it('passes any JSON data within its own JSON.stringify length', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonSizeProblem(value, JSON.stringify(value).length)).toBeNull();
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it('refuses shared sub-objects that stand for a huge tree, after a bounded count, naming where', () => {
    // 2^40 leaves in a few hundred bytes: each level is a list of two copies of the one below.
    let node: unknown = [1];
    for (let i = 0; i < 40; i++) node = [node, node];
    expect(jsonSizeProblem({ spells: node }, 1_000_000)).toMatch(/^\$\.spells(\[[01]\])+: the data is larger than 1000000 characters of JSON allow\.$/);
  });

  it('counts strings and keys by their length', () => {
    expect(jsonSizeProblem({ abc: 'x'.repeat(100) }, 106)).toBeNull();
    expect(jsonSizeProblem({ abc: 'x'.repeat(100) }, 104)).toBe('$.abc: the data is larger than 104 characters of JSON allow.');
  });

  it('refuses a cycle, naming where it closes', () => {
    const data: Record<string, unknown> = { a: [{ b: 1 }] };
    (data['a'] as Record<string, unknown>[])[0]!['again'] = data;
    expect(jsonSizeProblem(data, 1e9, '$.state')).toBe('$.state.a[0].again holds itself (a cycle): not data a snapshot can have.');
  });

  it('lets the same object appear twice side by side (a DAG within the bound is data)', () => {
    const shared = { n: 1 };
    expect(jsonSizeProblem([shared, shared], 1_000)).toBeNull();
  });
});
