import { describe, expect, it } from 'vitest';
import { describeServerEvent, localEvent } from './serverEvents.js';
import { ZoneView } from './zoneView.js';

function viewWithTroll(): ZoneView {
  const view = new ZoneView();
  view.apply({ t: 9, e: [['troll-1', 'Troll', 5, 5, 40], ['p1', 'Wizard', 4, 5, 100]] });
  return view;
}

describe('server events on the page', () => {
  it('name entities by the local numbers the painter and effects use, from the runtime’s declarations', () => {
    const view = viewWithTroll();
    const damage = localEvent({ type: 'damage', entity: 'troll-1', breed: 'Troll', amount: 10, health: 30, by: 'p1' }, view);
    expect(damage).toEqual({ type: 'damage', tick: 9, entity: view.idOf('troll-1'), breed: 'Troll', amount: 10, health: 30, by: view.idOf('p1') });
    const cast = localEvent({ type: 'cast', spell: 'zap', caster: 'p1', target: null }, view);
    expect(cast).toMatchObject({ caster: view.idOf('p1'), target: null });
    // A type the runtime does not declare passes as it is.
    expect(localEvent({ type: 'quest-done', who: 'p1' }, view)).toEqual({ type: 'quest-done', tick: 9, who: 'p1' });
  });

  it('describe events as the runtime does, with global ids and breeds', () => {
    const view = viewWithTroll();
    expect(describeServerEvent({ type: 'damage', entity: 'troll-1', breed: 'Troll', amount: 10, health: 30, by: 'p1' }, view)).toBe(
      '[tick 9] Troll#troll-1 takes 10 damage (health 30) from Wizard#p1',
    );
    expect(describeServerEvent({ type: 'say', entity: 'p1', breed: 'Wizard', text: 'hi' }, view)).toBe('[tick 9] Wizard#p1 says "hi"');
    expect(describeServerEvent({ type: 'quest-done', who: 'p1' }, view)).toBe('[tick 9] quest-done {"who":"p1"}');
  });
});
