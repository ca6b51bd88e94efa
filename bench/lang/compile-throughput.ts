/**
 * Compile throughput: lines per second of compile() on a generated
 * 10,000-line spell file. The first (cold) compile is reported apart from
 * the median of the timed ones, because the cold one pays for JIT warm-up.
 * Then the compiled tier's own compile time: every function of that file
 * compiled to JavaScript, per 1,000 bytecode words — the first time (the
 * source written and evaluated: what a new program costs), and again in new
 * VMs of the same module (the process remembers the source and the function
 * for the same code, vm/compiled/compile.ts: what a reload or a second VM
 * costs).
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
  /** The compiled tier compiling every function of that file to JavaScript the first time: milliseconds per 1,000 bytecode words, and the words. */
  readonly tierMsPer1000Words: number;
  /** The same in later VMs of the same module, whose source and functions the process remembers (median). */
  readonly tierCachedMsPer1000Words: number;
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
  // The tier's own code warmed up first, on a smaller file (other functions: other source), as compile() is above.
  new api.VM(compileOrThrow(api, generateSpellSource(Math.ceil(lines / 4)), 'warm-up.spell'), { tier: 'compiled', print: () => {} });
  const tierSamples = Array.from({ length: Math.max(2, runs + 1) }, () => new api.VM(module, { tier: 'compiled', print: () => {} }).compileStats);
  const tierWords = tierSamples[0]!.words;
  const per1000Words = (ms: number): number => (ms / Math.max(1, tierWords)) * 1000;
  return {
    tierMsPer1000Words: per1000Words(tierSamples[0]!.ms),
    tierCachedMsPer1000Words: per1000Words(median(tierSamples.slice(1).map((s) => s.ms))),
    tierWords,
    lines,
    characters: source.length,
    coldMs,
    medianMs,
    samplesMs,
    linesPerSecond: lines / (medianMs / 1000),
  };
}
