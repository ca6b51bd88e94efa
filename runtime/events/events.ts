/**
 * World events — the Event Queue and Observer patterns. Everything a spell
 * or the loop does that someone might want to show or log is queued as one
 * of these plain objects and handed to observers when the step flushes.
 * Entities are named by their serial id (never reused) and breed name.
 * Each type is declared once (built-in-events.ts; a game's own through
 * `new World({ events })`): its fields, its description, whether snapshots
 * keep it.
 */

import { AOI_EVENT_KINDS, CAST_CANCEL_REASONS, DESPAWN_REASONS, type WorldEvent } from './built-in-events.js';
import type { DescribeText, EntityId } from './event-declaration.js';
import { EventTable, type DeclaredEvent } from './event-table.js';

export type { EntityId } from './event-declaration.js';
export type { WorldEvent } from './built-in-events.js';

/** What an AOI notification says: the subject came into the observer's range, moved inside it, or left it. */
export type AoiEventKind = (typeof AOI_EVENT_KINDS)[number];
export type DespawnReason = (typeof DESPAWN_REASONS)[number];
/** Why a cast in flight was cancelled: its caster went (killed, despawned or recycled), or the embedder cancelled it (`World.cancelCast`). */
export type CastCancelReason = (typeof CAST_CANCEL_REASONS)[number];

export type WorldEventType = WorldEvent['type'];
export type WorldListener = (event: WorldEvent) => void;
/** Told about an error a listener threw, and the event it was handling (see World.onListenerError): a built-in event, or one of the game's. */
export type ListenerErrorHandler = (error: unknown, event: WorldEvent | DeclaredEvent) => void;

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

/**
 * One line of human-readable text per event (the CLI's `sim` output, the
 * playground's console), as its declaration describes it. A game's events
 * are described by the world's table (`world.events`); an event of a type
 * the table does not know shows its fields as JSON.
 */
export function describeEvent(e: WorldEvent | DeclaredEvent, breedOf: BreedLookup = () => undefined, events: EventTable = EventTable.BUILT_IN): string {
  const text: DescribeText = {
    who: (id, breed) => {
      if (id === null) return 'the world';
      const name = breed ?? breedOf(id);
      return name ? `${name}#${id}` : `#${id}`;
    },
    pos: (x, y) => `(${round(x)}, ${round(y)})`,
    num: round,
  };
  const head = `[tick ${e.tick}]`;
  const declaration = events.get(e.type);
  if (declaration === undefined) {
    const { type, tick: _tick, ...fields } = e;
    return `${head} ${type} ${JSON.stringify(fields)}`;
  }
  // The declaration of e.type describes events of that type.
  return `${head} ${declaration.describe(e as never, text)}`;
}

function round(n: number): string {
  return String(Math.round(n * 100) / 100);
}
