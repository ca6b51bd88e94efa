/**
 * Compile throughput: lines per second of compile() on a generated
 * 10,000-line spell file. The first (cold) compile is reported apart from
 * the median of the timed ones, because the cold one pays for JIT warm-up.
 */

import type { CantripApi } from './engines/cantrip.js';
import { compileOrThrow } from './engines/cantrip.js';
import { generateSpellSource } from './generate-spell.js';
import { median } from './measure.js';

export interface CompileThroughput {
  readonly lines: number;
  readonly characters: number;
  readonly coldMs: number;
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
  readonly linesPerSecond: number;
}

export function measureCompileThroughput(api: CantripApi, lines: number, runs: number): CompileThroughput {
  const source = generateSpellSource(lines);
  const time = (): number => {
    const start = performance.now();
    compileOrThrow(api, source, 'generated.spell');
    return performance.now() - start;
  };
  const coldMs = time();
  const samplesMs = Array.from({ length: runs }, time);
  const medianMs = median(samplesMs);
  return {
    lines,
    characters: source.length,
    coldMs,
    medianMs,
    samplesMs,
    linesPerSecond: lines / (medianMs / 1000),
  };
}
