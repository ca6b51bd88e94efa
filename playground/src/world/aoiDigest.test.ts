import { describe, expect, it } from 'vitest';
import { AoiDigest } from './aoiDigest.js';

describe('AOI digest', () => {
  it('shows a few AOI events per tick, then one line counting the rest of that tick', () => {
    const lines: string[] = [];
    const pending: (() => void)[] = [];
    const digest = new AoiDigest(2, (t) => lines.push(t), (fn) => pending.push(fn));
    for (let i = 0; i < 5; i++) digest.add(1, `a${i}`);
    for (let i = 0; i < 3; i++) digest.add(2, `b${i}`);
    digest.add(3, 'c0');
    for (const fn of pending) fn();
    expect(lines).toEqual(['a0', 'a1', 'b0', 'b1', 'c0', '[tick 1] … and 3 more AOI enter/leave events', '[tick 2] … and 1 more AOI enter/leave event']);
  });
});
