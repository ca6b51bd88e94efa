import { describe, expect, it } from 'vitest';
import type { WelcomeMessage } from '../../../server/protocol.js';
import { ZoneView, labelOf } from './zoneView.js';

const zones = [
  { id: 'z0-0', x: 0, y: 0, width: 20, height: 20 },
  { id: 'z1-0', x: 20, y: 0, width: 20, height: 20 },
];
const welcome = (zone: string): WelcomeMessage => ({ avatar: 'p1', zone, interest: 6, world: { width: 40, height: 20 }, zones, spells: ['zap'] });

function keys(view: ZoneView): string[] {
  return view.entities().map((e) => e.key).sort();
}

describe('ZoneView', () => {
  it('applies entered, moved, health and left entries of view messages', () => {
    const view = new ZoneView();
    view.welcome(welcome('z0-0'));
    view.apply({ t: 1, e: [['p1', 'Wizard', 10, 10, 100], ['troll', 'Troll', 12, 10, 60]] });
    expect(keys(view)).toEqual(['p1', 'troll']);
    expect(view.avatarEntity()).toMatchObject({ key: 'p1', x: 10, y: 10, interest: 6 });
    expect(view.byKey('troll')).toMatchObject({ interest: 0, health: 60, maxHealth: 60 });
    view.apply({ t: 2, m: [['troll', 13, 11]], h: [['troll', 45]] });
    expect(view.byKey('troll')).toMatchObject({ x: 13, y: 11, health: 45, maxHealth: 60 });
    expect(view.tick).toBe(2);
    view.apply({ t: 3, l: ['troll'] });
    expect(keys(view)).toEqual(['p1']);
  });

  it('gives each global id one local number for good, so effects of a returning entity find it', () => {
    const view = new ZoneView();
    view.welcome(welcome('z0-0'));
    view.apply({ t: 1, e: [['troll', 'Troll', 12, 10, 60]] });
    const id = view.idOf('troll');
    view.apply({ t: 2, l: ['troll'] });
    view.apply({ t: 3, e: [['troll', 'Troll', 14, 10, 30]] });
    expect(view.byKey('troll')!.id).toBe(id);
    // Its full health is remembered: the bar shows it hurt.
    expect(view.byKey('troll')!.maxHealth).toBe(60);
    expect(view.keyOf(id)).toBe('troll');
    expect(view.entity(id)).toBe(view.byKey('troll'));
  });

  it('never drops its own avatar on a "left" entry', () => {
    const view = new ZoneView();
    view.welcome(welcome('z0-0'));
    view.apply({ t: 1, e: [['p1', 'Wizard', 10, 10, 100]], l: ['p1'] });
    expect(view.avatarEntity()).not.toBeNull();
  });

  it('keeps the view over a hand-over, then drops what the next room does not list', () => {
    const view = new ZoneView();
    view.welcome(welcome('z0-0'));
    view.apply({ t: 7, e: [['p1', 'Wizard', 19.9, 10, 100], ['near', 'Troll', 22, 10, 60], ['behind', 'Troll', 14, 10, 60]] });
    view.handover('z1-0');
    expect(view.zone).toBe('z1-0');
    expect(keys(view)).toEqual(['behind', 'near', 'p1']);
    view.welcome(welcome('z1-0'));
    // Still drawn between the welcome and the first view of the new room.
    expect(keys(view)).toEqual(['behind', 'near', 'p1']);
    view.apply({ t: 3, e: [['p1', 'Wizard', 20.1, 10, 100], ['near', 'Troll', 22, 10, 60]] });
    expect(keys(view)).toEqual(['near', 'p1']);
    expect(view.avatarEntity()!.x).toBe(20.1);
    // Only the first view reconciles: later ones are changes as usual.
    view.apply({ t: 4, m: [['near', 23, 10]] });
    expect(keys(view)).toEqual(['near', 'p1']);
  });

  it('labels an entity by its global id, with its breed when the id is a bare number', () => {
    const view = new ZoneView();
    view.apply({ t: 1, e: [['troll-west', 'Troll', 1, 1, 10], ['4294967302', 'Troll', 2, 2, 10]] });
    expect(labelOf(view.byKey('troll-west')!)).toBe('troll-west');
    expect(labelOf(view.byKey('4294967302')!)).toBe('Troll#4294967302');
  });

  it('finds the zone that holds a point, from the layout before joining', () => {
    const view = new ZoneView();
    view.layout({ width: 40, height: 20 }, zones);
    expect(view.zoneAt(5, 5)?.id).toBe('z0-0');
    expect(view.zoneAt(20, 5)?.id).toBe('z1-0');
    expect(view.zoneAt(45, 5)).toBeNull();
  });

  it('starts afresh with another avatar, and forgets everything on clear', () => {
    const view = new ZoneView();
    view.welcome(welcome('z0-0'));
    view.apply({ t: 1, e: [['p1', 'Wizard', 10, 10, 100], ['troll', 'Troll', 12, 10, 60]] });
    view.welcome({ ...welcome('z0-0'), avatar: 'p2' });
    expect(keys(view)).toEqual([]);
    view.apply({ t: 2, e: [['p2', 'Wizard', 10, 10, 100]] });
    view.clear();
    expect(view.avatar).toBeNull();
    expect(keys(view)).toEqual([]);
  });

  it('reads the compact encoding: handles given on entering, moves in hundredths since the last position, a handle freed by a leave reused', () => {
    const view = new ZoneView();
    view.welcome(welcome('z0-0'));
    view.apply({ t: 1, e: [['p1', 'Wizard', 10, 10, 100, 1], ['troll', 'Troll', 12.5, 10, 60, 2]] });
    view.apply({ t: 2, c: [2, 50, -25, 1, 1, 0] });
    expect(view.byKey('troll')).toMatchObject({ x: 13, y: 9.75 });
    expect(view.avatarEntity()).toMatchObject({ x: 10.01, y: 10 });
    view.apply({ t: 3, c: [2, -300, 0] });
    expect(view.byKey('troll')).toMatchObject({ x: 10, y: 9.75 });
    view.apply({ t: 4, l: ['troll'] });
    view.apply({ t: 5, e: [['imp', 'Imp', 3, 3, 5, 2]] });
    view.apply({ t: 6, c: [2, 100, 100] });
    expect(view.byKey('imp')).toMatchObject({ x: 4, y: 4 });
    expect(view.byKey('troll')).toBeNull();
  });

  it("draws breeds in the looks the server's welcome gives (the playground's rule: grey '?' for an unknown one), and labels named entities by name", () => {
    const view = new ZoneView();
    view.welcome({ ...welcome('z0-0'), breeds: { Wizard: { color: '#123456', glyph: 'W' } } });
    expect([view.breedColour('Wizard'), view.breedGlyph('Wizard')]).toEqual(['#123456', 'W']);
    expect([view.breedColour('Troll'), view.breedGlyph('Troll')]).toEqual(['#9aa0a6', '?']);
    view.apply({ t: 1, e: [['p1', 'Wizard', 10, 10, 100], ['4294967302', 'Troll', 12, 10, 60]], n: [['p1', 'Ann']] });
    expect(labelOf(view.avatarEntity()!)).toBe('Ann');
    expect(labelOf(view.byKey('4294967302')!)).toBe('Troll#4294967302');
  });
});
