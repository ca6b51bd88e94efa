import { describe, expect, it } from 'vitest';
import { formatPrinted } from './engine.js';
import { median, type Measurement } from './measure.js';
import { evaluateTargets, geometricMean, geomeanRatio, toTable } from './stats.js';

const m = (engine: Measurement['engine'], benchmark: string, medianMs: number | null): Measurement => ({
  engine,
  benchmark,
  medianMs,
  minMs: medianMs,
  samplesMs: medianMs === null ? [] : [medianMs],
  error: medianMs === null ? 'failed' : null,
});

describe('bench statistics', () => {
  it('takes the median of odd and even samples', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('computes the geometric mean, null when empty', () => {
    expect(geometricMean([2, 8])).toBeCloseTo(4);
    expect(geometricMean([])).toBeNull();
  });

  it('averages Cantrip/peer ratios only over benchmarks both engines completed', () => {
    const table = toTable([
      m('cantrip', 'a', 100), m('wasmoon', 'a', 50),
      m('cantrip', 'b', 100), m('wasmoon', 'b', 200),
      m('cantrip', 'c', null), m('wasmoon', 'c', 10),
    ]);
    expect(geomeanRatio(table, 'wasmoon')).toBeCloseTo(1);
    expect(geomeanRatio(table, 'quickjs')).toBeNull();
  });

  it('judges the targets, wasmoon on the mean and on its slowest program', () => {
    const table = toTable([
      m('cantrip', 'a', 100), m('quickjs', 'a', 120), m('fengari', 'a', 400), m('wasmoon', 'a', 50),
      m('cantrip', 'b', 10), m('quickjs', 'b', 120), m('fengari', 'b', 400), m('wasmoon', 'b', 50),
    ]);
    const verdicts = Object.fromEntries(evaluateTargets(table).map((t) => [t.name, t.pass]));
    expect(verdicts).toEqual({
      'Cantrip/QuickJS': true,
      'fengari/Cantrip': true,
      'Cantrip/wasmoon': true,
      'Cantrip/wasmoon, the slowest program': false,
    });
  });

  it('prints peer values the way Lox prints them', () => {
    expect([1, 2.5, -0, true, null, undefined, 'x', 12n].map(formatPrinted)).toEqual([
      '1', '2.5', '0', 'true', 'nil', 'nil', 'x', '12',
    ]);
  });
});
