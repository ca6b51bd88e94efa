/**
 * The game host API — THE one table of what spells can ask the world to do
 * (the Subclass Sandbox pattern: these are the sandbox's provided
 * operations). Each row is name, typed parameters, return type, one line of
 * docs and the implementation. The compiler checks calls against it, the VM
 * binds it by name, the playground completes and documents from it, and
 * docs/runtime.md lists it.
 *
 * The implementations reach the world through the cast that is running,
 * which the VM hands them on their HostContext (`castOf`): host functions
 * have no other way to the world, so a spell can only touch the world it
 * was cast in.
 */

import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { boundedText } from '../../vm/bounded-text.js';
import { HostError } from '../../vm/errors.js';
import type { HostContext, HostFunction } from '../../vm/host.js';
import { heapFree } from '../../vm/objects.js';
import type { Value } from '../../vm/value.js';
import { EntityRef } from '../entities/entity-ref.js';
import type { EntityId } from '../events/events.js';

/** The running cast: which world, which caster, which spell. */
export interface CastContext {
  readonly host: GameHost;
  readonly spell: string;
  readonly caster: EntityId | null;
  /** Set by wait(): the game time at which the world resumes the cast. */
  wakeAt: number;
}

/** What the host functions need from a world (its WorldGameHost implements it; a cast holds it as `cast.host`). */
export interface GameHost {
  /** Whether the entity is one of this world's (a spell can hold entities of no other world, but a game's function might pass one). */
  owns(entity: EntityRef): boolean;
  damage(target: EntityRef, amount: number, cast: CastContext): number;
  heal(target: EntityRef, amount: number, cast: CastContext): number;
  spawnFromSpell(breed: string, x: number, y: number, cast: CastContext): EntityRef;
  despawnFromSpell(target: EntityRef): void;
  moveEntity(target: EntityRef, x: number, y: number): void;
  setEntityVelocity(target: EntityRef, vx: number, vy: number): void;
  nearbyEntities(center: EntityRef, r: number, ctx: HostContext): Value;
  nearestEntity(center: EntityRef, r: number, filter: string | null, ctx: HostContext): EntityRef | null;
  entitiesWithin(x: number, y: number, r: number, ctx: HostContext): Value;
  distanceBetween(a: EntityRef, b: EntityRef): number;
  emitSound(name: string, cast: CastContext): void;
  emitParticles(kind: string, x: number, y: number, count: number, cast: CastContext): void;
  emitSay(speaker: EntityRef, text: string, cast: CastContext): void;
  addBuff(target: EntityRef, stat: string, amount: number, seconds: number, cast: CastContext): void;
  nextRandom(): number;
  readonly time: number;
}

/**
 * The world's cast a host call runs in, or null: the VM hands every host
 * function its HostContext, and the world puts the cast on it
 * (`vm.hostCast`) around each run. A VM nobody cast on through a world (a
 * bare VM given these functions) has none.
 */
export function castIn(ctx: HostContext): CastContext | null {
  return (ctx.cast as CastContext | null | undefined) ?? null;
}

/** castIn, for a function that needs one: a HostError naming it otherwise. */
function castOf(ctx: HostContext, fn: string): CastContext {
  // Read here rather than through castIn: one load on every host call of every tick spell.
  const cast = ctx.cast as CastContext | null;
  if (cast == null) throw new HostError(`${fn}() can only be used in a spell cast on a world.`);
  return cast;
}

/** The cast a world's VM runs now (what its host calls see as `HostContext.cast`), or null: for tools that watch a world's VM, such as a debugger. */
export function runningCast(vm: { readonly hostCast: unknown }): CastContext | null {
  return (vm.hostCast as CastContext | null | undefined) ?? null;
}

function entity(cast: CastContext, fn: string, position: number, value: Value): EntityRef {
  if (value instanceof EntityRef && cast.host.owns(value)) return value;
  throw new HostError(`Argument ${position} of ${fn}() must be an entity of this world.`);
}

function finite(fn: string, position: number, value: Value): number {
  const n = value as number;
  if (!Number.isFinite(n)) throw new HostError(`Argument ${position} of ${fn}() must be a finite number.`);
  return n;
}

function nonNegative(fn: string, position: number, value: Value): number {
  const n = value as number;
  if (!(n >= 0)) throw new HostError(`Argument ${position} of ${fn}() must not be negative.`);
  return n;
}

/**
 * Longest spell text an event carries (say, sound, particles); longer text is cut with its
 * length said (vm/bounded-text.ts). The VM charged 1 fuel per character of every string
 * argument before the call; what the event delivers counts against the cast's output budget.
 */
export const MAX_EVENT_TEXT = 1000;

/** The event's copy of spell text: bounded, its length said. */
export function eventText(text: string): string {
  return boundedText(text, MAX_EVENT_TEXT);
}

function eventTextLength(text: string): number {
  return Math.min(text.length, MAX_EVENT_TEXT);
}

/**
 * The game API. Every function but the two that return a new list (`nearby`, `within`:
 * `ctx.makeList`) is marked `heapFree` (vm/objects.ts): none charges the heap — the world work
 * they do (events, entities, buffs, cancelled waiting casts) is the world's, not the calling
 * fiber's heap, and their context use is fuel, output and waiting only
 * (runtime/host/heap-free-hosts.test.ts calls each with a context whose heap charges throw).
 */
export const GAME_HOST_FUNCTIONS: readonly HostFunction[] = [
  heapFree({
    name: 'damage',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'amount', type: 'number', doc: 'health to take, ≥ 0' },
    ],
    returns: 'number',
    doc: 'Take health from target (not below 0) and return the damage dealt; at 0 health it dies at once (`alive` is false, no query returns it).',
    impl: (ctx, target, amount) => {
      const cast = castOf(ctx, 'damage');
      return cast.host.damage(entity(cast, 'damage', 1, target), finite('damage', 2, nonNegative('damage', 2, amount)), cast);
    },
  }),
  heapFree({
    name: 'heal',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'amount', type: 'number', doc: 'health to give, ≥ 0' },
    ],
    returns: 'number',
    doc: 'Give health to target (not above its maxHealth) and return the amount healed.',
    impl: (ctx, target, amount) => {
      const cast = castOf(ctx, 'heal');
      return cast.host.heal(entity(cast, 'heal', 1, target), finite('heal', 2, nonNegative('heal', 2, amount)), cast);
    },
  }),
  heapFree({
    name: 'spawn',
    params: [
      { name: 'breed', type: 'string', doc: 'a breed name from the breeds file' },
      { name: 'x', type: 'number' },
      { name: 'y', type: 'number' },
    ],
    returns: 'entity',
    doc: 'Create an entity of a breed at (x, y) and return it.',
    // Measured: a spawn and its despawn take ~4 µs (pool, index, state, events): about 200 units of plain loop fuel.
    fuel: 200,
    impl: (ctx, breed, x, y) => {
      const cast = castOf(ctx, 'spawn');
      return cast.host.spawnFromSpell(breed as string, finite('spawn', 2, x), finite('spawn', 3, y), cast);
    },
  }),
  heapFree({
    name: 'despawn',
    params: [{ name: 'target', type: 'entity' }],
    returns: 'nil',
    doc: 'Remove an entity from the world (it is gone at once; its slot is freed when the step ends).',
    fuel: 50,
    impl: (ctx, target) => {
      const cast = castOf(ctx, 'despawn');
      cast.host.despawnFromSpell(entity(cast, 'despawn', 1, target));
      return null;
    },
  }),
  heapFree({
    name: 'move',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'x', type: 'number' },
      { name: 'y', type: 'number' },
    ],
    returns: 'nil',
    doc: 'Put an entity at (x, y) now (clamped to the world).',
    impl: (ctx, target, x, y) => {
      const cast = castOf(ctx, 'move');
      cast.host.moveEntity(entity(cast, 'move', 1, target), finite('move', 2, x), finite('move', 3, y));
      return null;
    },
  }),
  heapFree({
    name: 'setVelocity',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'vx', type: 'number', doc: 'units per second' },
      { name: 'vy', type: 'number', doc: 'units per second' },
    ],
    returns: 'nil',
    doc: 'Set how fast an entity moves each second; the loop moves it every step.',
    impl: (ctx, target, vx, vy) => {
      const cast = castOf(ctx, 'setVelocity');
      cast.host.setEntityVelocity(entity(cast, 'setVelocity', 1, target), finite('setVelocity', 2, vx), finite('setVelocity', 3, vy));
      return null;
    },
  }),
  {
    name: 'nearby',
    params: [
      { name: 'center', type: 'entity' },
      { name: 'radius', type: 'number' },
    ],
    returns: 'list',
    doc: 'The living entities within radius of center (center included), nearest first.',
    impl: (ctx, center, radius) => {
      const cast = castOf(ctx, 'nearby');
      return cast.host.nearbyEntities(entity(cast, 'nearby', 1, center), nonNegative('nearby', 2, radius), ctx);
    },
  },
  heapFree({
    name: 'nearest',
    params: [
      { name: 'center', type: 'entity' },
      { name: 'radius', type: 'number' },
      { name: 'kind', type: 'string', optional: true, doc: 'only entities that `is` this breed or tag' },
    ],
    returns: 'entity',
    doc: 'The closest other living entity within radius (optionally of a breed or tag), or nil.',
    impl: (ctx, center, radius, kind) => {
      const cast = castOf(ctx, 'nearest');
      if (kind !== undefined && kind !== null && typeof kind !== 'string') {
        throw new HostError('Argument 3 of nearest() must be a string.');
      }
      return cast.host.nearestEntity(
        entity(cast, 'nearest', 1, center),
        nonNegative('nearest', 2, radius),
        typeof kind === 'string' ? kind : null,
        ctx,
      );
    },
  }),
  {
    name: 'within',
    params: [
      { name: 'x', type: 'number' },
      { name: 'y', type: 'number' },
      { name: 'radius', type: 'number' },
    ],
    returns: 'list',
    doc: 'The living entities within radius of the point (x, y), nearest first.',
    impl: (ctx, x, y, radius) => {
      const cast = castOf(ctx, 'within');
      return cast.host.entitiesWithin(finite('within', 1, x), finite('within', 2, y), nonNegative('within', 3, radius), ctx);
    },
  },
  heapFree({
    name: 'distance',
    params: [
      { name: 'a', type: 'entity' },
      { name: 'b', type: 'entity' },
    ],
    returns: 'number',
    doc: 'The distance between two living entities.',
    impl: (ctx, a, b) => {
      const cast = castOf(ctx, 'distance');
      return cast.host.distanceBetween(entity(cast, 'distance', 1, a), entity(cast, 'distance', 2, b));
    },
  }),
  heapFree({
    name: 'sound',
    params: [{ name: 'name', type: 'string' }],
    returns: 'nil',
    doc: "Play a sound at the caster's position (an event for the game to render).",
    impl: (ctx, name) => {
      const cast = castOf(ctx, 'sound');
      ctx.chargeOutput(eventTextLength(name as string));
      cast.host.emitSound(name as string, cast);
      return null;
    },
  }),
  heapFree({
    name: 'particles',
    params: [
      { name: 'kind', type: 'string' },
      { name: 'x', type: 'number' },
      { name: 'y', type: 'number' },
      { name: 'count', type: 'number' },
    ],
    returns: 'nil',
    doc: 'Emit count particles of a kind at (x, y) (an event for the game to render).',
    impl: (ctx, kind, x, y, count) => {
      const cast = castOf(ctx, 'particles');
      ctx.chargeOutput(eventTextLength(kind as string));
      cast.host.emitParticles(
        kind as string,
        finite('particles', 2, x),
        finite('particles', 3, y),
        finite('particles', 4, nonNegative('particles', 4, count)),
        cast,
      );
      return null;
    },
  }),
  heapFree({
    name: 'say',
    params: [
      { name: 'speaker', type: 'entity' },
      { name: 'text', type: 'string' },
    ],
    returns: 'nil',
    doc: 'Show text as said by an entity (an event).',
    impl: (ctx, speaker, text) => {
      const cast = castOf(ctx, 'say');
      ctx.chargeOutput(eventTextLength(text as string));
      cast.host.emitSay(entity(cast, 'say', 1, speaker), text as string, cast);
      return null;
    },
  }),
  heapFree({
    name: 'buff',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'stat', type: 'string', doc: 'speed, maxHealth, interest or a numeric breed attribute' },
      { name: 'amount', type: 'number', doc: 'added to the stat; negative to weaken' },
      { name: 'seconds', type: 'number', doc: 'how long until it wears off' },
    ],
    returns: 'nil',
    doc: 'Add amount to a stat of target for some seconds; the world removes it when it wears off.',
    // Measured by the cost fuzzer: a buff (the modifier, the stat summed again, its expiry in the timer heap,
    // its event) takes ~1.8 µs, about 50× a plain loop unit per fuel at the default charge; 60 brings it near 20×.
    fuel: 60,
    impl: (ctx, target, stat, amount, seconds) => {
      const cast = castOf(ctx, 'buff');
      cast.host.addBuff(
        entity(cast, 'buff', 1, target),
        stat as string,
        finite('buff', 3, amount),
        finite('buff', 4, nonNegative('buff', 4, seconds)),
        cast,
      );
      return null;
    },
  }),
  heapFree({
    name: 'random',
    params: [],
    returns: 'number',
    doc: "A number in [0, 1) from the world's seeded random source (same seed, same game).",
    impl: (ctx) => castOf(ctx, 'random').host.nextRandom(),
  }),
  heapFree({
    name: 'now',
    params: [],
    returns: 'number',
    doc: 'Game time in seconds since the world started.',
    impl: (ctx) => castOf(ctx, 'now').host.time,
  }),
  heapFree({
    name: 'wait',
    params: [{ name: 'seconds', type: 'number', doc: '≥ 0, at most the maxWait budget' }],
    returns: 'nil',
    doc: 'Pause this cast; the world resumes it once that much game time has passed.',
    impl: (ctx, seconds) => {
      const cast = castOf(ctx, 'wait');
      const s = finite('wait', 1, nonNegative('wait', 1, seconds));
      ctx.checkWait(s);
      cast.wakeAt = cast.host.time + s;
      ctx.suspend();
      return null;
    },
  }),
];

/** Everything a spell cast on a world can call: the core builtins plus the game API. */
export const WORLD_HOST_FUNCTIONS: readonly HostFunction[] = [...CORE_HOST_FUNCTIONS, ...GAME_HOST_FUNCTIONS];
