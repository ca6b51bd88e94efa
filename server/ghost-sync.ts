/**
 * Ghosts across zone borders: each tick a zone sends every neighbour the
 * entities it owns within interest range of that neighbour's rectangle, and
 * mirrors what its neighbours send it (runtime/world/world-mirrors.ts), so
 * `nearby`, `nearest` and the AOI see across the border. A neighbour's list
 * is whole each tick: a ghost it no longer lists is removed.
 */

import type { EntityId } from '../runtime/events/events.js';
import type { World } from '../runtime/world/world.js';
import type { GhostsMessage, ZoneBus } from './zone-bus.js';
import type { Zone, ZoneGrid } from './zone-grid.js';

type GhostEntry = GhostsMessage['entities'][number];

export class GhostSync {
  /** Each ghost here and the zone it mirrors an entity of. */
  private readonly ghostOf = new Map<EntityId, string>();
  private readonly lastSentTo = new Set<string>();
  /** The neighbours each entity was published to at the last publish (what happens to it is told to them too). */
  private readonly seenBy = new Map<EntityId, string[]>();

  constructor(
    private readonly world: World,
    private readonly grid: ZoneGrid,
    private readonly zone: Zone,
    private readonly bus: ZoneBus,
    /** How far into a neighbour an entity is seen: the largest interest range. */
    private readonly range: number,
  ) {}

  get count(): number {
    return this.ghostOf.size;
  }

  /** Send each neighbour the entities near it (an empty list to one that had some, so it drops them). */
  publish(tick: number, isOwned: (id: EntityId) => boolean): void {
    const z = this.zone;
    const r = this.range;
    const out = new Map<string, GhostEntry[]>();
    this.seenBy.clear();
    this.world.forEachPosition((id, x, y, mirror) => {
      // Most entities are deep inside the zone: a few comparisons each.
      if (mirror || (x - z.x > r && z.x + z.width - x > r && y - z.y > r && z.y + z.height - y > r) || !isOwned(id)) return;
      const neighbours = this.grid.neighboursWithin(z, x, y, r);
      if (neighbours.length === 0) return;
      const e = this.world.entity(id)!;
      this.seenBy.set(id, neighbours.map((n) => n.id));
      for (const n of neighbours) {
        let list = out.get(n.id);
        if (list === undefined) out.set(n.id, (list = []));
        list.push([id, e.breed, round(x), round(y), e.health]);
      }
    });
    for (const [to, entities] of out) this.bus.send(to, { type: 'ghosts', from: z.id, tick, entities });
    for (const to of this.lastSentTo) if (!out.has(to)) this.bus.send(to, { type: 'ghosts', from: z.id, tick, entities: [] });
    this.lastSentTo.clear();
    for (const to of out.keys()) this.lastSentTo.add(to);
  }

  /** Mirror a neighbour's list: add, move, remove its ghosts here. */
  receive(message: GhostsMessage): void {
    const listed = new Set<EntityId>();
    for (const [id, breed, x, y, health] of message.entities) {
      listed.add(id);
      if (this.world.isMirror(id)) {
        this.world.updateMirror(id, x, y, health);
        this.ghostOf.set(id, message.from);
      } else if (!this.world.isAlive(id)) {
        this.world.spawnMirror({ id, breed, x, y, health });
        this.ghostOf.set(id, message.from);
      }
      // Alive and not a mirror: it is ours (it arrived before the neighbour's list caught up).
    }
    for (const [id, from] of this.ghostOf) {
      if (from !== message.from || listed.has(id)) continue;
      this.drop(id);
    }
  }

  /** The neighbours that have a ghost of this zone's entity (as of the last publish). */
  watchersOf(id: EntityId): readonly string[] {
    return this.seenBy.get(id) ?? [];
  }

  /** The zone a ghost mirrors an entity of, if it is one. */
  ownerOf(id: EntityId): string | undefined {
    return this.ghostOf.get(id);
  }

  /** A ghost of an entity in transit from this zone (the hand-over keeps it). */
  keepInTransit(id: EntityId): void {
    this.ghostOf.set(id, this.zone.id);
  }

  /** The ghost now mirrors the entity at `owner` (the hand-over finished). */
  reassign(id: EntityId, owner: string): void {
    if (owner === this.zone.id) this.drop(id);
    else if (this.world.isMirror(id)) this.ghostOf.set(id, owner);
  }

  /** Remove a ghost (the entity arrives here, or left range). */
  drop(id: EntityId): void {
    this.ghostOf.delete(id);
    if (this.world.isMirror(id)) this.world.removeMirror(id);
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
