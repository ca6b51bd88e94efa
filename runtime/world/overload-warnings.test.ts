import { afterEach, describe, expect, it, vi } from 'vitest';
import { World } from './world.js';
import { OverloadWarnings, REPEAT_STEPS } from './overload-warnings.js';

const CAPS = { maxEventsPerStep: 500, maxHandlerCastsPerStep: 100 };

describe('overload warnings', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names what was dropped and the option that caps it', () => {
    const logged: string[] = [];
    new OverloadWarnings((m) => logged.push(m), CAPS).report(7, 3, 1);
    expect(logged).toEqual([
      'Cantrip world, step 7: over the per-step caps, dropped 1 onEnter/onLeave handler cast (maxHandlerCastsPerStep is 100) and 3 effect events (maxEventsPerStep is 500). ' +
        'Raise the World option, or spread the burst (a mass spawn) over several steps: docs/runtime.md, "Sizing the per-step caps".',
    ]);
  });

  it('a world overloaded every step says so once per REPEAT_STEPS steps, counting the steps in between', () => {
    const logged: string[] = [];
    const warnings = new OverloadWarnings((m) => logged.push(m), CAPS);
    for (let step = 1; step <= 2 * REPEAT_STEPS + 1; step++) warnings.report(step, 0, 5);
    expect(logged.length).toBe(3);
    expect(logged[0]).toMatch(/^Cantrip world, step 1: /);
    expect(logged[1]).toMatch(new RegExp(`^Cantrip world, step ${REPEAT_STEPS + 1}: .* ${REPEAT_STEPS - 1} other steps were over the caps since the last message\\.`));
  });

  it('goes to console.warn unless the game passes its own logger (also to World.restore)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const overloaded = (logger?: (m: string) => void): World => {
      const world = new World({ width: 20, height: 20, maxHandlerCastsPerStep: 1, ...(logger ? { logger } : {}) });
      world.loadSpells('spell hi(self, other) {}', 'hi.spell');
      world.loadBreeds({ breeds: [{ name: 'Watcher', interest: 5, spells: { onEnter: 'hi' } }] });
      for (let i = 0; i < 3; i++) world.spawn('Watcher', 5 + i, 5);
      return world;
    };
    overloaded().step();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/dropped 5 onEnter\/onLeave handler casts \(maxHandlerCastsPerStep is 1\)/);
    const mine: string[] = [];
    const world = overloaded((m) => mine.push(m));
    world.step();
    expect(mine.length).toBe(1);
    const saved = JSON.parse(JSON.stringify(world.snapshot())) as ReturnType<World['snapshot']>;
    const restoredLog: string[] = [];
    const restored = World.restore(saved, { logger: (m) => restoredLog.push(m) });
    restored.spawn('Watcher', 9, 5);
    restored.step();
    expect(restoredLog.length).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
