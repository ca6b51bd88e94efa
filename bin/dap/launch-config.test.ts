import { describe, expect, it } from 'vitest';
import { readLaunchArguments } from './launch-config.js';

const problem = (args: Record<string, unknown>) => {
  const plan = readLaunchArguments(args);
  return 'problem' in plan ? plan.problem : null;
};

describe('launch arguments', () => {
  it('read a script, a cast and a scenario, paths relative to cwd, budgets as the CLI takes them', () => {
    expect(readLaunchArguments({ program: 'a.spell', cwd: '/game', stopOnEntry: true, fuel: 500, type: 'cantrip', __sessionId: 'x' })).toEqual({
      kind: 'script',
      program: '/game/a.spell',
      stopOnEntry: true,
      noDebug: false,
      fuel: 500,
      maxHeap: null,
    });
    const cast = readLaunchArguments({ program: '/g/f.spell', spell: 'fireball', args: [{ breed: 'Wizard' }, null, 3, 'hot'] });
    expect(cast).toMatchObject({
      kind: 'cast',
      spell: 'fireball',
      fuel: Infinity,
      world: { width: 100, height: 100 },
      args: [{ kind: 'entity', breed: 'Wizard', x: null, y: null }, { kind: 'value', value: null }, { kind: 'value', value: 3 }, { kind: 'value', value: 'hot' }],
    });
    expect(readLaunchArguments({ scenario: '/g/s.json', ticks: 0 })).toMatchObject({ kind: 'scenario', scenario: '/g/s.json', ticks: 0 });
    // A scenario given as the program is debugged as one.
    expect(readLaunchArguments({ program: '/g/s.json' })).toMatchObject({ kind: 'scenario', ticks: null });
  });

  it('say what is wrong, naming the attribute', () => {
    expect(problem({})).toMatch(/needs 'program'/);
    expect(problem({ program: '' })).toBe("'program' must be a non-empty string.");
    expect(problem({ program: 'a.spell', scenario: 's.json' })).toMatch(/either 'program'.*or 'scenario'/);
    expect(problem({ program: 'a.spell', fuel: 0 })).toBe("'fuel' must be a positive whole number, got 0.");
    expect(problem({ program: 'a.spell', maxHeap: 1.5 })).toBe("'maxHeap' must be a positive whole number, got 1.5.");
    expect(problem({ scenario: 's.json', ticks: -1 })).toBe("'ticks' must be a whole number ≥ 0, got -1.");
    expect(problem({ program: 'a.spell', stopOnEntry: 'yes' })).toBe("'stopOnEntry' must be true or false.");
    expect(problem({ program: 'a.spell', args: [1] })).toMatch(/give the 'spell' to cast too/);
    expect(problem({ program: 'a.spell', spell: 'f', args: {} })).toMatch(/'args' must be a list/);
    expect(problem({ program: 'a.spell', spell: 'f', args: [{ breed: 'Troll', hp: 3 }] })).toMatch(/'args\[0\]' has an unknown field 'hp'/);
    expect(problem({ program: 'a.spell', spell: 'f', args: [{ x: 1 }] })).toMatch(/'args\[0\]' needs "breed"/);
    expect(problem({ program: 'a.spell', spell: 'f', args: [[1]] })).toMatch(/'args\[0\]' must be a number/);
    expect(problem({ program: 'a.spell', spell: 'f', world: { width: -1 } })).toBe("'world.width' must be above 0.");
    expect(problem({ scenario: 's.json', spell: 'f' })).toMatch(/A scenario names its own casts/);
  });
});
