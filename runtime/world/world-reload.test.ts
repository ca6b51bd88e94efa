import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { writeSpb } from '../../vm/spb.js';
import { SpellsCompileError, WorldError } from '../errors.js';
import type { WorldEvent } from '../events/events.js';
import { WORLD_HOST_FUNCTIONS } from '../host/host-api.js';
import { World } from './world.js';

const BREEDS = { breeds: [{ name: 'Troll', health: 50, spells: { tick: 'pace' } }, { name: 'Rock', health: 100 }] };

const V1 = `
spell pace(self, dt) { }
spell zap(caster, target) {
  damage(target, 1);
  wait(0.3);
  damage(target, 1);
  print "old zap done";
}
`;

const V2 = `
spell pace(self, dt) { self.paced = true; }
spell zap(caster, target) {
  damage(target, 10);
  wait(0.3);
  damage(target, 10);
  print "new zap done";
}
spell freeze(caster, target) { print "brr"; }
`;

function world(): { world: World; events: WorldEvent[]; prints: () => string[] } {
  const w = new World({ width: 20, height: 20 });
  w.loadSpells(V1, 'game.spell');
  w.loadBreeds(BREEDS);
  const events: WorldEvent[] = [];
  w.on((e) => events.push(e));
  return { world: w, events, prints: () => events.flatMap((e) => (e.type === 'print' ? [e.text] : [])) };
}

describe('live reload: loadSpells again with a loaded sourceName', () => {
  it("with inFlight 'keep', casts in flight finish on the old code; new casts and tick spells use the new code", () => {
    const { world: w, events, prints } = world();
    const rock = w.spawn('Rock', 5, 5);
    const troll = w.spawn('Troll', 6, 6);
    expect(w.cast('zap', null, rock).state).toBe('suspended');
    expect(w.entity(rock)!.health).toBe(99);
    w.loadSpells(V2, 'game.spell', { inFlight: 'keep' });
    expect(w.lastLoad).toEqual({
      sourceName: 'game.spell',
      reloaded: true,
      added: ['freeze'],
      removed: [],
      changed: ['pace', 'zap'],
      unchanged: [],
      inFlight: 'keep',
      continued: [],
      restarted: [],
      kept: [],
    });
    expect(w.casts().map((c) => c.oldCode)).toEqual([true]);
    w.cast('zap', null, rock); // the new code: 10 now, 10 later
    expect(w.entity(rock)!.health).toBe(89);
    for (let i = 0; i < 5; i++) w.step();
    expect(w.entity(rock)!.health).toBe(78); // old second wave 1, new second wave 10
    expect(prints()).toEqual(['old zap done', 'new zap done']);
    expect(w.property(troll, 'paced')).toBe(true);
    expect(w.spellNames()).toContain('freeze');
    const reload = events.find((e) => e.type === 'spells-reload');
    expect(reload).toMatchObject({ type: 'spells-reload', sourceName: 'game.spell', added: ['freeze'], removed: [], changed: ['pace', 'zap'] });
  });

  it('a change that only moves lines or renames nothing leaves spells unchanged', () => {
    const { world: w } = world();
    w.loadSpells('// a comment\n\n' + V1.replace('damage(target, 1);\n  wait', 'damage(target, 1);\n\n  wait'), 'game.spell');
    expect(w.lastLoad).toMatchObject({ changed: [], unchanged: ['pace', 'zap'] });
  });

  it('refuses an inFlight that is not one', () => {
    const { world: w } = world();
    expect(() => w.loadSpells(V2, 'game.spell', { inFlight: 'later' as never })).toThrow("loadSpells(): option 'inFlight' must be 'continue', 'keep' or 'restart', got \"later\".");
    expect(w.spellNames()).not.toContain('freeze');
  });

  it('is all or nothing: a breed losing its spell, a compile error, a clash or a failing script keep the old module', () => {
    const { world: w, prints } = world();
    const rock = w.spawn('Rock', 5, 5);
    expect(() => w.loadSpells('spell zap(caster, target) { print "new"; }', 'game.spell')).toThrow(
      new WorldError(
        "Cannot reload game.spell: Breed 'Troll': field 'spells.tick' names spell 'pace', which the loaded spells do not define. The old spells stay loaded.",
      ),
    );
    expect(() => w.loadSpells('spell pace(self, dt) { print ; }', 'game.spell')).toThrow(SpellsCompileError);
    w.loadSpells('spell other(c, t) { }', 'other.spell');
    expect(() => w.loadSpells(V1 + 'spell other(c, t) { }', 'game.spell')).toThrow(/Spell 'other' is defined twice/);
    expect(() => w.loadSpells(V2 + 'var x = nil; x.y;', 'game.spell')).toThrow(/top-level script failed/);
    w.cast('zap', null, rock);
    w.flush();
    expect(w.entity(rock)!.health).toBe(99);
    expect(w.spellNames().sort()).toEqual(['other', 'pace', 'zap']);
    for (let i = 0; i < 4; i++) w.step();
    expect(prints()).toEqual(['old zap done']);
  });

  it('reloads .spb modules the same way: the waiting cast goes on in the new code', () => {
    const { world: w, prints } = world();
    const rock = w.spawn('Rock', 5, 5);
    w.cast('zap', null, rock);
    const v2 = writeSpb(compile(V2, { sourceName: 'game.spell', hosts: WORLD_HOST_FUNCTIONS }).module!);
    w.loadModule(v2, 'game.spell');
    expect(w.lastLoad).toMatchObject({ reloaded: true, added: ['freeze'], changed: ['pace', 'zap'], continued: ['world:1'], kept: [] });
    for (let i = 0; i < 4; i++) w.step();
    w.cast('freeze');
    w.flush();
    expect(prints()).toEqual(['new zap done', 'brr']);
    expect(w.entity(rock)!.health).toBe(89);
    const broken = writeSpb(compile('spell zap(c, t) { }', { hosts: WORLD_HOST_FUNCTIONS }).module!);
    expect(() => w.loadModule(broken, 'game.spell')).toThrow(/names spell 'pace'/);
  });

  it('a first load reports every spell as added and queues no reload event', () => {
    const w = new World({ width: 5, height: 5 });
    const events: WorldEvent[] = [];
    w.on((e) => events.push(e));
    w.loadSpells(V1, 'game.spell');
    w.flush();
    expect(w.lastLoad).toMatchObject({ reloaded: false, added: ['pace', 'zap'] });
    expect(events).toEqual([]);
  });
});
