import { describe, expect, expectTypeOf, it } from 'vitest';
import { WorldError } from '../errors.js';
import { worldHostFunction } from '../host/world-hosts.js';
import { World } from '../world/world.js';
import { BUILT_IN_EVENTS, type WorldEvent } from './built-in-events.js';
import { declareEvent, type EntityId } from './event-declaration.js';
import { describeEvent } from './events.js';

const BREEDS = { breeds: [{ name: 'Hero', health: 20 }, { name: 'Rat', health: 3 }] };

const questDone = declareEvent({
  type: 'quest-done',
  doc: 'A hero finished a quest.',
  fields: {
    quest: { type: 'string', doc: 'the quest' },
    hero: { type: 'entity' },
    reward: { type: 'number', nullable: true },
    mood: { type: 'string', oneOf: ['glad', 'grim'] },
  },
  describe: (e, t) => `${t.who(e.hero)} finishes ${e.quest} (${e.mood})`,
});

/** Only for the screen: a snapshot drops it, and a busy step may too. */
const sparkle = declareEvent({
  type: 'fx:sparkle',
  doc: 'A sparkle on screen.',
  fields: { x: { type: 'number' }, y: { type: 'number' } },
  keptBySnapshots: false,
  describe: (e, t) => `sparkle at ${t.pos(e.x, e.y)}`,
});

const finishQuest = worldHostFunction({
  name: 'finishQuest',
  params: [
    { name: 'hero', type: 'entity' },
    { name: 'quest', type: 'string' },
  ],
  returns: 'nil',
  doc: 'The hero finished a quest.',
  impl: (ctx, hero, quest) => {
    ctx.world.emit(questDone, { quest, hero: hero.id, reward: null, mood: 'glad' });
    return null;
  },
});

function questWorld(): { world: World<typeof questDone | typeof sparkle>; seen: (WorldEvent | { type: string })[] } {
  const world = new World({ width: 20, height: 20, hosts: [finishQuest], events: [questDone, sparkle] });
  world.loadBreeds(BREEDS);
  world.loadSpells('spell slay(hero, rat) { damage(rat, 99); finishQuest(hero, "Rats in the cellar"); }', 'quest.spell');
  const seen: (WorldEvent | { type: string })[] = [];
  world.on((e) => seen.push(e));
  return { world, seen };
}

describe('a game’s own event types', () => {
  it('are emitted from a host function, stamped with the tick, and reach listeners typed by their declaration', () => {
    const { world, seen } = questWorld();
    const hero = world.spawn('Hero', 1, 1);
    const rat = world.spawn('Rat', 2, 1);
    for (let i = 0; i < 3; i++) world.step();
    const done: { quest: string; hero: EntityId; tick: number }[] = [];
    world.on((e) => {
      if (e.type === 'quest-done') {
        expectTypeOf(e.quest).toEqualTypeOf<string>();
        expectTypeOf(e.reward).toEqualTypeOf<number | null>();
        expectTypeOf(e.mood).toEqualTypeOf<'glad' | 'grim'>();
        done.push({ quest: e.quest, hero: e.hero, tick: e.tick });
      } else if (e.type === 'damage') {
        expectTypeOf(e.amount).toEqualTypeOf<number>();
      }
    });
    world.cast('slay', hero, rat);
    world.step();
    expect(done).toEqual([{ quest: 'Rats in the cellar', hero, tick: 3 }]);
    const event = seen.find((e) => e.type === 'quest-done') as WorldEvent;
    expect(describeEvent(event, (id) => world.entity(id)?.breed, world.events)).toBe('[tick 3] Hero#1 finishes Rats in the cellar (glad)');
    // Without the world's table, a game event still gets a line: its fields as JSON.
    expect(describeEvent(event)).toBe('[tick 3] quest-done {"quest":"Rats in the cellar","hero":1,"reward":null,"mood":"glad"}');
  });

  it('are checked: fields against the declaration, the declaration against the world', () => {
    const { world } = questWorld();
    const hero = world.spawn('Hero', 1, 1);
    // @ts-expect-error -- quest must be a string
    expect(() => world.emit(questDone, { quest: 3, hero, reward: null, mood: 'glad' })).toThrow(
      new WorldError("Field 'quest' of event 'quest-done' must be a string, got 3."),
    );
    // @ts-expect-error -- mood is 'glad' or 'grim'
    expect(() => world.emit(questDone, { quest: 'q', hero, reward: 1, mood: 'meh' })).toThrow("must be 'glad' or 'grim', got \"meh\"");
    // @ts-expect-error -- no such field
    expect(() => world.emit(questDone, { quest: 'q', hero, reward: 1, mood: 'grim', gold: 5 })).toThrow("Event 'quest-done' has no field 'gold'");
    const stranger = declareEvent({ type: 'stranger', doc: '', fields: {}, describe: () => 'a stranger' });
    expect(() => world.emit(stranger, {})).toThrow("The world has no game event 'stranger'");
    // A copy of a declaration is not the declaration the world was given.
    expect(() => world.emit({ ...questDone } as typeof questDone, { quest: 'q', hero, reward: null, mood: 'glad' })).toThrow(WorldError);
    expect(world.snapshot().queued?.map((e) => e.type)).toEqual(['spawn']);
  });

  it('a declaration that collides with a built-in or another, or is malformed, is a WorldError at construction', () => {
    const make = (events: readonly unknown[]): World => new World({ width: 5, height: 5, events: events as (typeof questDone)[] });
    const damage = declareEvent({ type: 'damage', doc: '', fields: {}, describe: () => '' });
    expect(() => make([damage])).toThrow(new WorldError("Event 'damage' is declared twice, or is a built-in event's type."));
    expect(() => make([questDone, questDone])).toThrow("Event 'quest-done' is declared twice");
    expect(() => make([{ ...questDone, type: 'two words' }])).toThrow('Event type "two words" is not a valid name');
    expect(() => make([{ ...questDone, fields: { tick: { type: 'number' } } }])).toThrow("cannot have a field named 'tick'");
    expect(() => make([{ ...questDone, fields: { n: { type: 'bigint' } } }])).toThrow("Field 'n' of event 'quest-done' must have a type");
    expect(() => make([{ ...questDone, describe: undefined }])).toThrow('has no describe function');
    expect(make([questDone]).events.isGameEvent('quest-done')).toBe(true);
    expect(make([]).events.isGameEvent('damage')).toBe(false);
  });

  it('snapshots keep them while queued when their declaration says so; restoring needs the declarations', () => {
    const { world } = questWorld();
    const hero = world.spawn('Hero', 1, 1);
    world.step();
    world.emit(questDone, { quest: 'Saved', hero, reward: 7, mood: 'grim' });
    world.emit(sparkle, { x: 1, y: 2 });
    const snapshot = JSON.parse(JSON.stringify(world.snapshot()));
    expect(snapshot.queued.map((e: { type: string }) => e.type)).toEqual(['quest-done']);

    const restored = World.restore(snapshot, { hosts: [finishQuest], events: [questDone, sparkle] });
    const delivered: string[] = [];
    restored.on((e) => delivered.push(describeEvent(e, () => 'Hero', restored.events)));
    restored.flush();
    expect(delivered).toEqual(['[tick 1] Hero#1 finishes Saved (grim)']);

    expect(() => World.restore(snapshot, { hosts: [finishQuest] })).toThrow(
      "it holds a queued 'quest-done' event, a type this world does not declare (a game's event types are passed to World.restore in `events`)",
    );
    const forged = { ...snapshot, queued: [{ ...snapshot.queued[0], reward: 'lots' }] };
    expect(() => World.restore(forged, { hosts: [finishQuest], events: [questDone, sparkle] })).toThrow(WorldError);
  });

  it('declare droppable like effects by default: past the step cap they are counted, not queued', () => {
    const world = new World({ width: 5, height: 5, maxEventsPerStep: 2, events: [sparkle] });
    for (let i = 0; i < 5; i++) world.emit(sparkle, { x: i, y: 0 });
    const seen: string[] = [];
    world.on((e) => seen.push(e.type));
    world.flush();
    expect(seen).toEqual(['fx:sparkle', 'fx:sparkle', 'overload']);
  });
});

describe('the built-in event declarations', () => {
  it('are one per type, each with a description and documented fields', () => {
    const types = BUILT_IN_EVENTS.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    for (const d of BUILT_IN_EVENTS) expect(d.doc.length, d.type).toBeGreaterThan(10);
  });
});
