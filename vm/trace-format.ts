/**
 * A runtime error's call stack as clox prints it (`[line N] in fn()`, then
 * `[line N] in script`), with recursion collapsed: a stack overflow is 256
 * frames of the same few lines, and a reader needs to see the pattern once
 * and how often it repeats, not scroll past it (as Python's
 * "[Previous line repeated 996 more times]"). The CLI, the world's
 * cast-error events and the playground all print traces through this.
 */
import { boundedText } from './bounded-text.js';

/** One frame of a runtime stack trace, innermost first. */
export interface TraceFrame {
  /** '' for the top-level script. */
  readonly functionName: string;
  readonly line: number;
}

/** A run of identical frames (or of a repeated cycle of frames) shorter than this prints in full. */
export const MIN_COLLAPSED_REPEATS = 3;
/** The longest cycle of frames recognised (mutual recursion f → g → f …). */
export const MAX_COLLAPSED_CYCLE = 4;

export function frameLine(frame: TraceFrame): string {
  return `[line ${frame.line}] in ${frame.functionName === '' ? 'script' : boundedText(frame.functionName) + '()'}`;
}

/** The trace lines, innermost first; repeated frames become one counting line. */
export function formatTrace(trace: readonly TraceFrame[]): string[] {
  const lines = trace.map(frameLine);
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const { period, repeats } = longestRepeat(lines, i);
    if (repeats < MIN_COLLAPSED_REPEATS) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    const block = lines.slice(i, i + period);
    out.push(...block);
    const more = repeats - 1;
    out.push(period === 1 ? `${block[0]} — ${more} more times` : `[the ${period} frames above, ${more} more times]`);
    i += period * repeats;
  }
  return out;
}

/** The cycle starting at `start` that covers the most frames, and how many times it repeats in a row. */
function longestRepeat(lines: readonly string[], start: number): { period: number; repeats: number } {
  let best = { period: 1, repeats: 1 };
  for (let period = 1; period <= MAX_COLLAPSED_CYCLE && start + 2 * period <= lines.length; period++) {
    let repeats = 1;
    while (sameBlock(lines, start, start + repeats * period, period)) repeats++;
    if (repeats >= MIN_COLLAPSED_REPEATS && repeats * period > best.repeats * best.period) best = { period, repeats };
  }
  return best;
}

function sameBlock(lines: readonly string[], a: number, b: number, length: number): boolean {
  if (b + length > lines.length) return false;
  for (let k = 0; k < length; k++) if (lines[a + k] !== lines[b + k]) return false;
  return true;
}
