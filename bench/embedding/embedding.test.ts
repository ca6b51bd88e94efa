/** The embedding suite's contenders compute what they claim (checked on small inputs; no timing). */
import { describe, expect, it } from 'vitest';
import { callContenders, expectedAdd, expectedFields } from './host-calls.js';
import { checkTickAgreement } from './index.js';
import { cantripWorld } from './world-tick.js';

describe('bench/embedding contenders', () => {
  it('every engine returns the expected sums for add and fields', async () => {
    const { contenders, missing } = await callContenders();
    expect(missing).toEqual([]);
    for (const c of contenders) {
      expect([c.engine, c.add(2000)]).toEqual([c.engine, expectedAdd(2000)]);
      expect([c.engine, c.fields(300)]).toEqual([c.engine, expectedFields(300)]);
      c.dispose();
    }
  }, 60_000);

  it('the per-entity loops of every engine end with the same positions, and so do the World with the tick spell and the World stepped by plain JS', async () => {
    expect(await checkTickAgreement(200, 4)).toEqual([
      'Cantrip World.step',
      'plain JS through the World API',
      'Cantrip VM (castLoop per entity)',
      'fengari',
      'wasmoon (raw C API)',
      'QuickJS',
      'plain JS',
    ]);
    // The Worlds' agreement means something: their entities do move.
    const world = cantripWorld(300);
    const before = world.checksum();
    for (let i = 0; i < 4; i++) world.step();
    expect(world.checksum()).not.toBe(before);
    world.dispose();
  }, 60_000);
});
