/**
 * The world's own event types, each declared once (event-declaration.ts):
 * WorldEvent is derived from this table, and describeEvent, the snapshot of
 * queued events, the per-step cap and the event table in docs/runtime.md
 * read it.
 */

import { declareEvent, type EventOfDeclaration } from './event-declaration.js';

export const AOI_EVENT_KINDS = ['enter', 'move', 'leave'] as const;
export const DESPAWN_REASONS = ['despawned', 'killed', 'evicted', 'handed-over'] as const;
export const CAST_CANCEL_REASONS = ['caster-gone', 'cancelled'] as const;

const entity = { type: 'entity', doc: 'the entity' } as const;
const breed = { type: 'string', doc: 'its breed' } as const;
const by = { type: 'entity', nullable: true, doc: 'the caster whose spell did it, or null' } as const;
const spell = { type: 'string', doc: 'the spell' } as const;
const caster = { type: 'entity', nullable: true, doc: 'the caster, or null' } as const;
const castId = { type: 'string', nullable: true, doc: "the cast's id as `world.casts()` lists it, or null for a cast that never waited or paused" } as const;

const spawn = declareEvent({
  type: 'spawn',
  doc: 'An entity was spawned.',
  fields: { entity, breed, x: { type: 'number' }, y: { type: 'number' } },
  droppable: false,
  describe: (e, t) => `${t.who(e.entity, e.breed)} spawns at ${t.pos(e.x, e.y)}`,
});

const despawn = declareEvent({
  type: 'despawn',
  doc: 'An entity is gone: despawned, killed (health 0), evicted (recycled by a full pool) or handed over (moved to another zone with its casts: World.releaseEntity).',
  fields: { entity, breed, reason: { type: 'string', oneOf: DESPAWN_REASONS } },
  droppable: false,
  describe: (e, t) => `${t.who(e.entity, e.breed)} ${e.reason === 'killed' ? 'dies' : e.reason === 'evicted' ? 'is recycled' : e.reason === 'handed-over' ? 'moves to another zone' : 'vanishes'}`,
});

const damage = declareEvent({
  type: 'damage',
  doc: 'An entity took damage.',
  fields: { entity, breed, amount: { type: 'number' }, health: { type: 'number', doc: 'after' }, by },
  describe: (e, t) => `${t.who(e.entity, e.breed)} takes ${t.num(e.amount)} damage (health ${t.num(e.health)})${e.by !== null ? ` from ${t.who(e.by)}` : ''}`,
});

const heal = declareEvent({
  type: 'heal',
  doc: 'An entity was healed (only when it gained health).',
  fields: { entity, breed, amount: { type: 'number' }, health: { type: 'number', doc: 'after' }, by },
  describe: (e, t) => `${t.who(e.entity, e.breed)} heals ${t.num(e.amount)} (health ${t.num(e.health)})${e.by !== null ? ` from ${t.who(e.by)}` : ''}`,
});

const sound = declareEvent({
  type: 'sound',
  doc: 'A spell played a sound, at its caster’s position.',
  fields: { name: { type: 'string' }, x: { type: 'number' }, y: { type: 'number' }, by },
  describe: (e, t) => `sound "${e.name}" at ${t.pos(e.x, e.y)}`,
});

const particles = declareEvent({
  type: 'particles',
  doc: 'A spell asked for particles.',
  fields: { kind: { type: 'string' }, x: { type: 'number' }, y: { type: 'number' }, count: { type: 'number' }, by },
  describe: (e, t) => `${e.count} ${e.kind} particles at ${t.pos(e.x, e.y)}`,
});

const say = declareEvent({
  type: 'say',
  doc: 'An entity says something.',
  fields: { entity, breed, text: { type: 'string' } },
  describe: (e, t) => `${t.who(e.entity, e.breed)} says "${e.text}"`,
});

const print = declareEvent({
  type: 'print',
  doc: 'A spell printed a line.',
  fields: { text: { type: 'string' }, spell: { type: 'string', nullable: true }, caster },
  describe: (e) => `print: ${e.text}`,
});

const buffFields = {
  entity,
  stat: { type: 'string', doc: 'the stat' },
  amount: { type: 'number' },
  seconds: { type: 'number' },
} as const;

const buff = declareEvent({
  type: 'buff',
  doc: 'A buff started.',
  fields: buffFields,
  describe: (e, t) => `${t.who(e.entity)} ${e.stat} ${e.amount >= 0 ? '+' : ''}${t.num(e.amount)} for ${t.num(e.seconds)}s`,
});

const buffEnd = declareEvent({
  type: 'buff-end',
  doc: 'A buff wore off.',
  fields: buffFields,
  describe: (e, t) => `${t.who(e.entity)} ${e.stat} ${e.amount >= 0 ? '+' : ''}${t.num(e.amount)} wears off`,
});

const aoi = declareEvent({
  type: 'aoi',
  doc: 'A subject entered, moved inside or left an observer’s range (move events only with `aoiMoveEvents: true`).',
  fields: { kind: { type: 'string', oneOf: AOI_EVENT_KINDS }, observer: { type: 'entity' }, subject: { type: 'entity' } },
  describe: (e, t) => `${t.who(e.subject)} ${e.kind === 'enter' ? 'enters' : e.kind === 'leave' ? 'leaves' : 'moves in'} the range of ${t.who(e.observer)}`,
});

const cast = declareEvent({
  type: 'cast',
  doc: 'The embedder cast a spell.',
  fields: { spell, caster, target: { type: 'entity', nullable: true } },
  droppable: false,
  describe: (e, t) => `${t.who(e.caster)} casts ${e.spell}${e.target !== null ? ` on ${t.who(e.target)}` : ''}`,
});

const spellsReload = declareEvent({
  type: 'spells-reload',
  doc: 'loadSpells / loadModule replaced a loaded module (a live reload): which spells it added, removed and changed.',
  fields: {
    sourceName: { type: 'string' },
    added: { type: 'strings' },
    removed: { type: 'strings' },
    changed: { type: 'strings' },
  },
  describe: (e) => {
    const parts = [
      e.changed.length > 0 ? `changed ${e.changed.join(', ')}` : '',
      e.added.length > 0 ? `added ${e.added.join(', ')}` : '',
      e.removed.length > 0 ? `removed ${e.removed.join(', ')}` : '',
    ].filter((p) => p !== '');
    return `reloaded ${e.sourceName}: ${parts.length > 0 ? parts.join('; ') : 'no spell changed'}`;
  },
});

const hostCall = declareEvent({
  type: 'host-call',
  doc: 'A call of a host function that is only declared (`cantrip sim --api`): what the game would have been asked to do.',
  fields: { name: { type: 'string' }, args: { type: 'strings', doc: 'as `print` shows them' }, spell, caster },
  describe: (e, t) => `${t.who(e.caster)} calls ${e.name}(${e.args.join(', ')}) in ${e.spell}`,
});

const overload = declareEvent({
  type: 'overload',
  doc: 'The step passed `maxEventsPerStep` or `maxHandlerCastsPerStep` and dropped this many effect events and onEnter / onLeave casts.',
  fields: { droppedEvents: { type: 'number' }, droppedCasts: { type: 'number' } },
  droppable: false,
  describe: (e) =>
    `over the step's caps: dropped ${e.droppedEvents} event${e.droppedEvents === 1 ? '' : 's'} and ${e.droppedCasts} AOI handler cast${e.droppedCasts === 1 ? '' : 's'}`,
});

const castError = declareEvent({
  type: 'cast-error',
  doc: 'A cast failed.',
  fields: {
    id: castId,
    spell,
    caster,
    line: { type: 'number' },
    message: { type: 'string' },
    trace: { type: 'string', doc: 'clox-style: the message, then `[line N] in fn()` per frame' },
  },
  droppable: false,
  describe: (e, t) => `${e.spell} (cast by ${t.who(e.caster)}) failed: ${e.trace.replace(/\n/g, ' ')}`,
});

const castCancelled = declareEvent({
  type: 'cast-cancelled',
  doc: 'A cast in flight was cancelled: its caster went, or the embedder cancelled it (`World.cancelCast`, `World.cancelCasts`), or a reload restarted it.',
  fields: {
    id: castId,
    spell,
    caster,
    reason: { type: 'string', oneOf: CAST_CANCEL_REASONS },
    message: { type: 'string', doc: 'for people: "Its caster died.", or the embedder’s message' },
  },
  droppable: false,
  describe: (e, t) => `${e.spell} (cast by ${t.who(e.caster)}) is cancelled: ${e.message}`,
});

/** Every built-in event type, in the order the docs list them. */
export const BUILT_IN_EVENTS = [
  spawn,
  despawn,
  damage,
  heal,
  sound,
  particles,
  say,
  print,
  buff,
  buffEnd,
  aoi,
  cast,
  castError,
  castCancelled,
  overload,
  spellsReload,
  hostCall,
] as const;

/** The world's own events, as observers get them. */
export type WorldEvent = EventOfDeclaration<(typeof BUILT_IN_EVENTS)[number]>;
