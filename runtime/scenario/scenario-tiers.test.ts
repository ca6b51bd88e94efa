/**
 * A world replayed under either tier produces the identical event stream:
 * every scenario in spells/scenarios, run on the interpreter alone and with
 * every function compiled before it runs.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Tier } from '../../vm/vm.js';
import { parseScenario, runScenario, type ScenarioFiles } from './scenario.js';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../spells/scenarios');
const files = (base: string): ScenarioFiles => ({
  readText: (p) => fs.readFileSync(path.resolve(base, p), 'utf8'),
  readBytes: (p) => fs.readFileSync(path.resolve(base, p)),
});

function eventStream(file: string, tier: Tier): string[] {
  const scenario = parseScenario(fs.readFileSync(file, 'utf8'));
  const events: string[] = [];
  const world = runScenario(scenario, files(path.dirname(file)), { tier, onEvent: (event) => events.push(JSON.stringify(event)) });
  events.push(JSON.stringify(world.snapshot()));
  return events;
}

const scenarios = fs.readdirSync(DIR).filter((name) => name.endsWith('.json'));

describe('a world under either tier', () => {
  it.each(scenarios)('gives the same events and the same snapshot: %s', (name) => {
    const file = path.join(DIR, name);
    const interpreted = eventStream(file, 'interpreter');
    expect(interpreted.length).toBeGreaterThan(1);
    expect(eventStream(file, 'compiled')).toEqual(interpreted);
  });

  it('says which tier a spell runs on (World.tierOf)', () => {
    const file = path.join(DIR, scenarios[0]!);
    const scenario = parseScenario(fs.readFileSync(file, 'utf8'));
    for (const tier of ['interpreter', 'compiled'] as const) {
      const world = runScenario(scenario, files(path.dirname(file)), { tier, ticks: 1 });
      const spell = world.spellNames()[0]!;
      expect(world.tierOf(spell)).toBe(tier);
      expect(world.tierOf('no such spell')).toBeNull();
    }
  });
});
