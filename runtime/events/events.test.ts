import { describe, expect, it } from 'vitest';
import { describeEvent, EntityNames, type WorldEvent } from './events.js';

describe('describeEvent with EntityNames', () => {
  const spawnWizard: WorldEvent = { type: 'spawn', tick: 0, entity: 1, breed: 'Wizard', x: 0, y: 0 };
  const spawnTroll: WorldEvent = { type: 'spawn', tick: 0, entity: 2, breed: 'Troll', x: 3, y: 0 };
  const cast: WorldEvent = { type: 'cast', tick: 1, spell: 'fireball', caster: 1, target: 2 };

  it('names entities by breed once their spawn was seen, and by id without a lookup', () => {
    const names = new EntityNames();
    names.observe(spawnWizard);
    names.observe(spawnTroll);
    expect(describeEvent(cast, names.breedOf)).toBe('[tick 1] Wizard#1 casts fireball on Troll#2');
    expect(describeEvent(cast)).toBe('[tick 1] #1 casts fireball on #2');
  });

  it('still names an entity in the events that follow its despawn, then forgets it (bounded memory)', () => {
    const names = new EntityNames();
    names.observe(spawnWizard);
    names.observe(spawnTroll);
    const dies: WorldEvent = { type: 'despawn', tick: 2, entity: 2, breed: 'Troll', reason: 'killed' };
    const leaves: WorldEvent = { type: 'aoi', tick: 2, kind: 'leave', observer: 1, subject: 2 };
    names.observe(dies);
    expect(describeEvent(dies, names.breedOf)).toBe('[tick 2] Troll#2 dies');
    names.observe(leaves);
    expect(describeEvent(leaves, names.breedOf)).toBe('[tick 2] Troll#2 leaves the range of Wizard#1');
    // Gone between steps (tick 2): the AOI leave comes in step 3.
    const nextLeave: WorldEvent = { ...leaves, tick: 3 };
    names.observe(nextLeave);
    expect(describeEvent(nextLeave, names.breedOf)).toBe('[tick 3] Troll#2 leaves the range of Wizard#1');
    names.observe({ type: 'say', tick: 4, entity: 1, breed: 'Wizard', text: 'hm' });
    expect(names.breedOf(2)).toBeUndefined();
    expect(names.breedOf(1)).toBe('Wizard');
    expect(names.size).toBe(1);
  });

  it('stays as small as the world over a long run of births and deaths', () => {
    const names = new EntityNames();
    for (let tick = 0; tick < 10_000; tick++) {
      names.observe({ type: 'spawn', tick, entity: tick + 1, breed: 'Imp', x: 0, y: 0 });
      if (tick >= 5) names.observe({ type: 'despawn', tick, entity: tick - 4, breed: 'Imp', reason: 'killed' });
    }
    expect(names.size).toBeLessThanOrEqual(5 + 2);
  });

  it('describes a cancelled cast with its reason', () => {
    const cancelled: WorldEvent = { type: 'cast-cancelled', tick: 4, id: '1:1', spell: 'fireball', caster: 1, reason: 'caster-gone', message: 'Its caster died.' };
    const names = new EntityNames();
    names.observe(spawnWizard);
    expect(describeEvent(cancelled, names.breedOf)).toBe('[tick 4] fireball (cast by Wizard#1) is cancelled: Its caster died.');
  });
});
