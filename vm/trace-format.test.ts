import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TraceFrame } from './trace-format.js';
import { SpellRuntimeError } from './errors.js';
import { formatTrace, frameLine } from './trace-format.js';

const f = (functionName: string, line: number): TraceFrame => ({ functionName, line });
const repeat = <T>(n: number, x: T[]): T[] => Array.from({ length: n }, () => x).flat();

describe('formatTrace', () => {
  it('prints a short trace as clox does', () => {
    expect(formatTrace([f('inner', 2), f('outer', 4), f('', 6)])).toEqual(['[line 2] in inner()', '[line 4] in outer()', '[line 6] in script']);
  });

  it('collapses runaway recursion into one counting line', () => {
    const trace = [...repeat(255, [f('f', 1)]), f('', 2)];
    expect(formatTrace(trace)).toEqual(['[line 1] in f()', '[line 1] in f() — 254 more times', '[line 2] in script']);
  });

  it('keeps two identical frames as they are (a count of one says nothing)', () => {
    expect(formatTrace([f('f', 1), f('f', 1), f('', 2)])).toEqual(['[line 1] in f()', '[line 1] in f()', '[line 2] in script']);
  });

  it('collapses mutual recursion as a repeated cycle', () => {
    const trace = [f('leaf', 9), ...repeat(100, [f('even', 3), f('odd', 7)]), f('', 10)];
    expect(formatTrace(trace)).toEqual(['[line 9] in leaf()', '[line 3] in even()', '[line 7] in odd()', '[the 2 frames above, 99 more times]', '[line 10] in script']);
  });

  it('the message comes first (SpellRuntimeError.format, used by the CLI, the world and the playground)', () => {
    const error = new SpellRuntimeError('Stack overflow.', [...repeat(10, [f('f', 1)]), f('', 2)]);
    expect(error.format()).toBe('Stack overflow.\n[line 1] in f()\n[line 1] in f() — 9 more times\n[line 2] in script');
  });

  it('never loses a frame: expanding the counts gives the trace back (property)', () => {
    const frame = fc.record({ functionName: fc.constantFrom('', 'a', 'b', 'c'), line: fc.integer({ min: 1, max: 3 }) });
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 60 }), (trace) => {
        const expanded: string[] = [];
        for (const line of formatTrace(trace)) {
          const single = / — (\d+) more times$/.exec(line);
          const cycle = /^\[the (\d+) frames above, (\d+) more times\]$/.exec(line);
          if (single) expanded.push(...repeat(Number(single[1]), [line.slice(0, single.index)]));
          else if (cycle) expanded.push(...repeat(Number(cycle[2]), expanded.slice(-Number(cycle[1]))));
          else expanded.push(line);
        }
        expect(expanded).toEqual(trace.map(frameLine));
      }),
    );
  });
});
