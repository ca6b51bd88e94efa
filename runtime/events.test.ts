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

  it('forgets an entity when it despawns, so the table stays as small as the world', () => {
    const names = new EntityNames();
    names.observe(spawnTroll);
    const dies: WorldEvent = { type: 'despawn', tick: 2, entity: 2, breed: 'Troll', reason: 'killed' };
    names.observe(dies);
    expect(describeEvent(dies, names.breedOf)).toBe('[tick 2] Troll#2 dies');
    expect(names.breedOf(2)).toBeUndefined();
  });
});
