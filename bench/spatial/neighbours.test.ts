import { describe, expect, it } from 'vitest';
import { CONTENDERS, neighbourCounts } from './neighbours.js';
import { makeAoiRig } from './aoi-events.js';

describe('spatial benchmark contenders', () => {
  it('all find the same neighbours, so the timings compare equal work', () => {
    const expected = neighbourCounts(CONTENDERS.find((c) => c.name === 'brute force')!, 600, 4);
    expect(expected.every((c) => c > 600)).toBe(true);
    for (const contender of CONTENDERS) expect(neighbourCounts(contender, 600, 4)).toEqual(expected);
  });

  it('the AOI rig reports the same events on both indexes', () => {
    const grid = makeAoiRig(400, 'grid');
    const axis = makeAoiRig(400, 'axis');
    for (let t = 0; t < 5; t++) {
      grid.tick();
      axis.tick();
    }
    expect(grid.events.enter).toBeGreaterThan(0);
    expect(axis.events).toEqual(grid.events);
  });
});
