import { describe, expect, it } from 'vitest';
import type { Engine, EngineName } from './engine.js';
import { measureRoundRobin, type RunPlan } from './measure.js';

const plan: RunPlan = { warmups: 1, minRuns: 2, maxRuns: 2, budgetMs: 0 };

function fakeEngine(name: EngineName, output: string[], calls: string[]): Engine {
  return {
    name,
    language: 'js',
    run() {
      calls.push(name);
      return output;
    },
    collect() {},
    dispose() {},
  };
}

describe('measureRoundRobin', () => {
  it('warms up, then alternates engines run by run', () => {
    const calls: string[] = [];
    const engines = [fakeEngine('node', ['42'], calls), fakeEngine('quickjs', ['42'], calls)];
    const results = measureRoundRobin(engines.map((engine) => ({ engine, source: '' })), 'b', ['42'], plan);
    expect(calls).toEqual(['node', 'quickjs', 'node', 'quickjs', 'node', 'quickjs']);
    expect(results.map((r) => [r.engine, r.samplesMs.length, r.error])).toEqual([
      ['node', 2, null],
      ['quickjs', 2, null],
    ]);
  });

  it('drops an engine that prints the wrong checksum and reports what it printed', () => {
    const calls: string[] = [];
    const engines = [fakeEngine('wasmoon', ['41'], calls), fakeEngine('node', ['42'], calls)];
    const [wrong, right] = measureRoundRobin(engines.map((engine) => ({ engine, source: '' })), 'b', ['42'], plan);
    expect(wrong!.medianMs).toBeNull();
    expect(wrong!.error).toContain('printed ["41"], expected ["42"]');
    expect(calls.filter((c) => c === 'wasmoon')).toHaveLength(1);
    expect(right!.medianMs).not.toBeNull();
  });

  it('reports an engine that throws as failed', () => {
    const broken: Engine = { ...fakeEngine('fengari', [], []), run: () => { throw new Error('boom\nstack'); } };
    const [result] = measureRoundRobin([{ engine: broken, source: '' }], 'b', ['1'], plan);
    expect(result!.error).toBe('boom');
  });
});
