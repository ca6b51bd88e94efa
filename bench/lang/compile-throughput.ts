/**
 * Compile throughput: lines per second of compile() on a generated
 * 10,000-line spell file. The first (cold) compile is reported apart from
 * the median of the timed ones, because the cold one pays for JIT warm-up.
 * Then the compiled tier's own compile time: every function of that file
 * compiled to JavaScript, per 1,000 bytecode words.
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
  /** The compiled tier compiling every function of that file to JavaScript: milliseconds per 1,000 bytecode words (median), and the words. */
  readonly tierMsPer1000Words: number;
  readonly tierWords: number;
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
  const module = compileOrThrow(api, source, 'generated.spell');
  const tierSamples = Array.from({ length: Math.max(1, runs) }, () => new api.VM(module, { tier: 'compiled', print: () => {} }).compileStats);
  const tierWords = tierSamples[0]!.words;
  const tierMsPer1000Words = (median(tierSamples.map((s) => s.ms)) / Math.max(1, tierWords)) * 1000;
  return {
    tierMsPer1000Words,
    tierWords,
    lines,
    characters: source.length,
    coldMs,
    medianMs,
    samplesMs,
    linesPerSecond: lines / (medianMs / 1000),
  };
}
