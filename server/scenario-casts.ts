/**
 * A served scenario's `casts`: each runs just before step N of the zone that
 * owns its caster (as `cantrip sim` runs it before step N), once. Zones step
 * independently, so "step N" is the caster's own zone's: the index of the
 * caster's next cast travels with the entity (in its hand-over and in its
 * zone's saves), and a zone that receives it behind or ahead of the sender
 * runs exactly the casts that are due by its own tick — none twice, none lost.
 *
 * A cast with no caster runs in its target's zone; with neither, in the zone
 * of index 0. Names are scenario entity names; a scenario entity's id is
 * known before any zone starts (ZoneRuntime numbers a zone's scenario
 * entities first, in scenario order: `scenarioEntityIds`), so the target may
 * be an entity of another zone — the cast reaches it through its ghost when
 * it is within the ghost range, and is skipped with a `cast-error` otherwise.
 */

import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import type { ScenarioCast, ScenarioEntity } from '../runtime/scenario/scenario.js';
import type { World } from '../runtime/world/world.js';
import type { Zone, ZoneGrid } from './zone-grid.js';

/** Each zone's entity ids start at its index × this, so an id names one entity across the whole server. */
export const IDS_PER_ZONE = 2 ** 32;

/** The id each named scenario entity gets: a zone spawns its scenario entities first, in scenario order, from its first id. */
export function scenarioEntityIds(entities: readonly ScenarioEntity[], grid: ZoneGrid): Map<string, EntityId> {
  const ids = new Map<string, EntityId>();
  const spawned = new Map<string, number>();
  for (const e of entities) {
    const zone = grid.zoneAt(e.x, e.y);
    const n = spawned.get(zone.id) ?? 0;
    spawned.set(zone.id, n + 1);
    if (e.name !== undefined) ids.set(e.name, zone.index * IDS_PER_ZONE + 1 + n);
  }
  return ids;
}

interface CastOf {
  /** The entity whose zone runs it (its caster, else its target), or null: the zone of index 0. */
  readonly subject: EntityId | null;
  readonly caster: EntityId | null;
  readonly target: EntityId | null;
  readonly cast: ScenarioCast;
}

export class ScenarioCasts {
  /** Each subject's casts, by tick. */
  private readonly bySubject = new Map<EntityId | null, CastOf[]>();
  /** The index of the next cast of each subject this zone owns. */
  private readonly next = new Map<EntityId, number>();
  private nextUnowned = 0;

  constructor(
    casts: readonly ScenarioCast[],
    ids: ReadonlyMap<string, EntityId>,
    private readonly world: World,
    private readonly zone: Zone,
    private readonly owns: (id: EntityId) => boolean,
  ) {
    for (const cast of casts) {
      const caster = cast.caster === undefined ? null : ids.get(cast.caster)!;
      const target = cast.target === undefined ? null : ids.get(cast.target)!;
      const subject = caster ?? target;
      const list = this.bySubject.get(subject) ?? [];
      list.push({ subject, caster, target, cast });
      this.bySubject.set(subject, list);
    }
  }

  /** A scenario entity spawned here: its casts start from the first. */
  started(id: EntityId): void {
    if (this.bySubject.has(id)) this.next.set(id, 0);
  }

  /** The zone restarts at `tick` from its save (the casts with no subject run again from there: state rolled back). */
  restartAt(tick: number): void {
    const list = this.bySubject.get(null) ?? [];
    this.nextUnowned = list.findIndex((c) => c.cast.tick >= tick);
    if (this.nextUnowned < 0) this.nextUnowned = list.length;
  }

  /** The index of an entity's next cast (what travels with it), if it has casts. */
  nextCastOf(id: EntityId): number | undefined {
    return this.next.get(id);
  }

  /** An entity arrived, restored or recovered here with the index of its next cast. */
  carry(id: EntityId, nextCast: number | undefined): void {
    if (nextCast !== undefined) this.next.set(id, nextCast);
  }

  /** The entity left this zone (handed over, or gone): its next cast went with it. */
  left(id: EntityId): void {
    this.next.delete(id);
  }

  /** Run every cast due by `tick` (call just before step `tick`). */
  runDue(tick: number): void {
    for (const [id, index] of this.next) {
      if (!this.owns(id)) continue;
      const list = this.bySubject.get(id)!;
      let i = index;
      for (; i < list.length && list[i]!.cast.tick <= tick; i++) this.run(list[i]!);
      if (i !== index) this.next.set(id, i);
    }
    if (this.zone.index !== 0) return;
    const unowned = this.bySubject.get(null) ?? [];
    for (; this.nextUnowned < unowned.length && unowned[this.nextUnowned]!.cast.tick <= tick; this.nextUnowned++) this.run(unowned[this.nextUnowned]!);
  }

  private run(c: CastOf): void {
    const world = this.world;
    // The target is here or a ghost here (within reach of the caster's zone), or out of reach / gone.
    if (c.target !== null && !world.isAlive(c.target)) {
      this.skipped(c, `Skipped: the target '${c.cast.target}' is gone or out of reach of zone ${this.zone.id} (a served cast reaches entities of its caster's zone and their ghosts).`);
      return;
    }
    try {
      world.cast(c.cast.spell, c.caster, c.target);
    } catch (error) {
      this.skipped(c, `Skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Reported through the world's events, as `cantrip sim` reports a skipped cast: a cast error with no line. */
  private skipped(c: CastOf, message: string): void {
    const event: WorldEvent = { type: 'cast-error', tick: this.world.steps, id: null, spell: c.cast.spell, caster: c.caster, line: 0, message, trace: message };
    this.world.emit(event);
  }
}
