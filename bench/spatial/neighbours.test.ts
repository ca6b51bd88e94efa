import { describe, expect, it } from 'vitest';
import { CONTENDERS, neighbourCounts } from './neighbours.js';
import { makeAoiRig } from './aoi-events.js';

describe('spatial benchmark contenders', () => {
  it('all find the same neighbours, so the timings compare equal work', () => {
    const expected = neighbourCounts(CONTENDERS.find((c) => c.name === 'brute force')!, 600, 4);
    expect(expected.every((c) => c > 600)).toBe(true);
    for (const contender of CONTENDERS) expect(neighbourCounts(contender, 600, 4)).toEqual(expected);
  });

  it('the AOI rig reports the same events on both indexes, with the new AOI and the recompute baseline', () => {
    for (const moverStride of [1, 10]) {
      const rigs = [
        makeAoiRig(400, { partition: 'grid', implementation: 'recompute', moverStride }),
        makeAoiRig(400, { partition: 'grid', moverStride }),
        makeAoiRig(400, { partition: 'axis', moverStride }),
        makeAoiRig(400, { partition: 'axis', implementation: 'recompute', moverStride }),
      ];
      for (let t = 0; t < 5; t++) for (const rig of rigs) rig.tick();
      expect(rigs[0]!.events.enter).toBeGreaterThan(0);
      expect(rigs[0]!.events.move).toBeGreaterThan(0);
      for (const rig of rigs) expect(rig.events).toEqual(rigs[0]!.events);
    }
  });
});
