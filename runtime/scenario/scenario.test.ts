import { describe, expect, it } from 'vitest';
import { parseScenario } from './scenario.js';

const valid = {
  breeds: 'breeds.json',
  spells: ['fireball.spell'],
  world: { width: 10, height: 10 },
  seed: 1,
  entities: [],
  casts: [],
};

function problem(scenario: unknown): string {
  try {
    parseScenario(JSON.stringify(scenario));
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('scenario validation messages', () => {
  it('accepts a valid scenario', () => {
    expect(problem(valid)).toBe('accepted');
  });

  it('says which field has the wrong type, with the right article', () => {
    expect(problem({ ...valid, spells: 'fireball.spell' })).toBe("Scenario: 'spells' must be an array.");
    expect(problem({ ...valid, seed: 'one' })).toBe("Scenario: 'seed' must be an integer.");
  });

  it('names a missing or unknown field', () => {
    const { breeds: _breeds, ...noBreeds } = valid;
    expect(problem(noBreeds)).toBe("Scenario: the scenario needs 'breeds'.");
    expect(problem({ ...valid, colour: 'red' })).toBe("Scenario: the scenario has an unknown field 'colour'.");
  });
});
