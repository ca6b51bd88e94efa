/**
 * World events — the Event Queue and Observer patterns. Everything a spell
 * or the loop does that someone might want to show or log is queued as one
 * of these plain objects and handed to observers when the step flushes.
 * Entities are named by their serial id (never reused) and breed name.
 */

import type { AoiEventKind } from '../aoi/aoi.js';

/** A world's entity id: 1, 2, 3 … in spawn order, never reused. */
export type EntityId = number;

interface At {
  /** The step (fixed tick) during which the event happened. */
  readonly tick: number;
}

export type DespawnReason = 'despawned' | 'killed' | 'evicted';

/** Why a cast in flight was cancelled: its caster went (killed, despawned or recycled), or the embedder cancelled it (`World.cancelCast`). */
export type CastCancelReason = 'caster-gone' | 'cancelled';

export type WorldEvent =
  | (At & { readonly type: 'spawn'; readonly entity: EntityId; readonly breed: string; readonly x: number; readonly y: number })
  | (At & { readonly type: 'despawn'; readonly entity: EntityId; readonly breed: string; readonly reason: DespawnReason })
  | (At & {
      readonly type: 'damage' | 'heal';
      readonly entity: EntityId;
      readonly breed: string;
      readonly amount: number;
      readonly health: number;
      /** The caster whose spell did it, when there is one. */
      readonly by: EntityId | null;
    })
  | (At & { readonly type: 'sound'; readonly name: string; readonly x: number; readonly y: number; readonly by: EntityId | null })
  | (At & {
      readonly type: 'particles';
      readonly kind: string;
      readonly x: number;
      readonly y: number;
      readonly count: number;
      readonly by: EntityId | null;
    })
  | (At & { readonly type: 'say'; readonly entity: EntityId; readonly breed: string; readonly text: string })
  | (At & { readonly type: 'print'; readonly text: string; readonly spell: string | null; readonly caster: EntityId | null })
  | (At & {
      readonly type: 'buff' | 'buff-end';
      readonly entity: EntityId;
      readonly stat: string;
      readonly amount: number;
      readonly seconds: number;
    })
  | (At & { readonly type: 'aoi'; readonly kind: AoiEventKind; readonly observer: EntityId; readonly subject: EntityId })
  | (At & { readonly type: 'cast'; readonly spell: string; readonly caster: EntityId | null; readonly target: EntityId | null })
  | (At & {
      /** loadSpells / loadModule replaced a loaded module (live reload): which spells it added, removed and changed. */
      readonly type: 'spells-reload';
      readonly sourceName: string;
      readonly added: readonly string[];
      readonly removed: readonly string[];
      readonly changed: readonly string[];
    })
  | (At & {
      /** A call of a host function that is only declared (`cantrip sim --api`): what the game would have been asked to do. */
      readonly type: 'host-call';
      readonly name: string;
      /** The arguments as `print` shows them. */
      readonly args: readonly string[];
      readonly spell: string;
      readonly caster: EntityId | null;
    })
  | (At & {
      /** The step passed a per-step cap: this many effect events and AOI handler casts were dropped. */
      readonly type: 'overload';
      readonly droppedEvents: number;
      readonly droppedCasts: number;
    })
  | (At & {
      readonly type: 'cast-error';
      readonly spell: string;
      readonly caster: EntityId | null;
      readonly line: number;
      readonly message: string;
      /** clox-style: the message, then `[line N] in fn()` per frame. */
      readonly trace: string;
    })
  | (At & {
      readonly type: 'cast-cancelled';
      readonly spell: string;
      readonly caster: EntityId | null;
      readonly reason: CastCancelReason;
      /** For people: "Its caster died.", or the embedder's message. */
      readonly message: string;
    });

export type WorldEventType = WorldEvent['type'];
export type WorldListener = (event: WorldEvent) => void;
/** Told about an error a listener threw, and the event it was handling (see World.onListenerError). */
export type ListenerErrorHandler = (error: unknown, event: WorldEvent) => void;

/** Looks up an entity's breed name for descriptions; `undefined` when unknown. */
export type BreedLookup = (id: EntityId) => string | undefined;

/**
 * Remembers the breed of each entity from spawn events, so descriptions
 * name entities ("Troll#2", not "#2"). Events about an entity still follow
 * its despawn — AOI leaves in the same step, or in the next one when it went
 * between steps (a cast from the embedder) — so it is forgotten only once
 * events two ticks later arrive: the table stays as small as the world (plus
 * two ticks of the dead) however long it runs. Observe every event, in order.
 */
export class EntityNames {
  private readonly breeds = new Map<EntityId, string>();
  /** Despawned entities still named, oldest first, with the tick they went. */
  private gone: { readonly id: EntityId; readonly tick: number }[] = [];

  observe(e: WorldEvent): void {
    if (this.gone.length > 0 && this.gone[0]!.tick < e.tick - 1) this.forgetBefore(e.tick - 1);
    if (e.type === 'spawn') this.breeds.set(e.entity, e.breed);
    else if (e.type === 'despawn') {
      this.breeds.set(e.entity, e.breed); // also names one spawned before observing began
      this.gone.push({ id: e.entity, tick: e.tick });
    }
  }

  /** Name an entity whose spawn was not observed (it existed before observing began: a world built or restored earlier). */
  remember(id: EntityId, breed: string): void {
    this.breeds.set(id, breed);
  }

  /** Forget everything (the world was replaced by one whose ids mean other entities). */
  clear(): void {
    this.breeds.clear();
    this.gone = [];
  }

  /** How many entities are named (living, and the recently gone). */
  get size(): number {
    return this.breeds.size;
  }

  readonly breedOf: BreedLookup = (id) => this.breeds.get(id);

  private forgetBefore(tick: number): void {
    let kept = 0;
    while (kept < this.gone.length && this.gone[kept]!.tick < tick) this.breeds.delete(this.gone[kept++]!.id);
    this.gone = this.gone.slice(kept);
  }
}

/** One line of human-readable text per event (the CLI's `sim` output, the playground's console). */
export function describeEvent(e: WorldEvent, breedOf: BreedLookup = () => undefined): string {
  const who = (id: EntityId | null, breed?: string): string => {
    if (id === null) return 'the world';
    const name = breed ?? breedOf(id);
    return name ? `${name}#${id}` : `#${id}`;
  };
  const pos = (x: number, y: number): string => `(${round(x)}, ${round(y)})`;
  const head = `[tick ${e.tick}]`;
  switch (e.type) {
    case 'spawn':
      return `${head} ${who(e.entity, e.breed)} spawns at ${pos(e.x, e.y)}`;
    case 'despawn':
      return `${head} ${who(e.entity, e.breed)} ${e.reason === 'killed' ? 'dies' : e.reason === 'evicted' ? 'is recycled' : 'vanishes'}`;
    case 'damage':
      return `${head} ${who(e.entity, e.breed)} takes ${round(e.amount)} damage (health ${round(e.health)})${e.by !== null ? ` from ${who(e.by)}` : ''}`;
    case 'heal':
      return `${head} ${who(e.entity, e.breed)} heals ${round(e.amount)} (health ${round(e.health)})${e.by !== null ? ` from ${who(e.by)}` : ''}`;
    case 'sound':
      return `${head} sound "${e.name}" at ${pos(e.x, e.y)}`;
    case 'particles':
      return `${head} ${e.count} ${e.kind} particles at ${pos(e.x, e.y)}`;
    case 'say':
      return `${head} ${who(e.entity, e.breed)} says "${e.text}"`;
    case 'print':
      return `${head} print: ${e.text}`;
    case 'buff':
      return `${head} ${who(e.entity)} ${e.stat} ${e.amount >= 0 ? '+' : ''}${round(e.amount)} for ${round(e.seconds)}s`;
    case 'buff-end':
      return `${head} ${who(e.entity)} ${e.stat} ${e.amount >= 0 ? '+' : ''}${round(e.amount)} wears off`;
    case 'aoi':
      return `${head} ${who(e.subject)} ${e.kind === 'enter' ? 'enters' : e.kind === 'leave' ? 'leaves' : 'moves in'} the range of ${who(e.observer)}`;
    case 'cast':
      return `${head} ${who(e.caster)} casts ${e.spell}${e.target !== null ? ` on ${who(e.target)}` : ''}`;
    case 'spells-reload': {
      const parts = [
        e.changed.length > 0 ? `changed ${e.changed.join(', ')}` : '',
        e.added.length > 0 ? `added ${e.added.join(', ')}` : '',
        e.removed.length > 0 ? `removed ${e.removed.join(', ')}` : '',
      ].filter((p) => p !== '');
      return `${head} reloaded ${e.sourceName}: ${parts.length > 0 ? parts.join('; ') : 'no spell changed'}`;
    }
    case 'host-call':
      return `${head} ${who(e.caster)} calls ${e.name}(${e.args.join(', ')}) in ${e.spell}`;
    case 'overload':
      return `${head} over the step's caps: dropped ${e.droppedEvents} event${e.droppedEvents === 1 ? '' : 's'} and ${e.droppedCasts} AOI handler cast${e.droppedCasts === 1 ? '' : 's'}`;
    case 'cast-error':
      return `${head} ${e.spell} (cast by ${who(e.caster)}) failed: ${e.trace.replace(/\n/g, ' ')}`;
    case 'cast-cancelled':
      return `${head} ${e.spell} (cast by ${who(e.caster)}) is cancelled: ${e.message}`;
  }
}

function round(n: number): string {
  return String(Math.round(n * 100) / 100);
}
