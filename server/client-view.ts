/**
 * What one client sees: the entities in its avatar's interest range, from
 * the zone world's AOI enter and leave events for that avatar (ghosts from
 * neighbour zones included — the AOI sees them like any entity), sent as one
 * compact `view` message per tick in which anything changed (server/protocol.ts).
 * Moves and health changes are found by comparing the entities in view with
 * what was sent last — the AOI's own move events would cost every observer
 * in the world, not just the avatars. Ids travel as strings (they pass 2^32).
 *
 * The compact encoding (a client that joins with `compact: true`) gives each
 * entity in view a small handle and sends moves as whole-hundredth deltas
 * from the last position sent (`c`): a few bytes a move instead of ~30.
 */

import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import type { World } from '../runtime/world/world.js';
import { EntityLookup } from './entity-lookup.js';
import type { ClientWorldEvent, EnteredEntity, EntityName, HealthChange, MovedEntity, ViewMessage } from './protocol.js';

interface Sent {
  /** Position last sent, in whole hundredths of a unit. */
  xh: number;
  yh: number;
  health: number;
  /** Its handle in the compact encoding (0: none). */
  handle: number;
}


export class ClientView {
  private readonly sent = new Map<EntityId, Sent>();
  private readonly entering = new Set<EntityId>();
  private readonly leaving = new Set<EntityId>();
  private events: ClientWorldEvent[] = [];
  /** Compact handles given back by entities that left, reused smallest first. */
  private readonly freeHandles: number[] = [];
  private nextHandle = 1;
  private readonly releasedHandles: number[] = [];

  constructor(
    private readonly world: World,
    readonly avatar: EntityId,
    private readonly compact = false,
  ) {
    // The avatar sees itself, and what is in range already (the AOI reports only changes).
    this.entering.add(avatar);
    const me = world.entity(avatar);
    if (me !== null) for (const id of world.nearby(me.x, me.y, me.interest)) this.entering.add(id);
  }

  /** Entities in view now (what a cast may target). */
  sees(id: EntityId): boolean {
    return this.sent.has(id);
  }

  observe(event: WorldEvent): void {
    switch (event.type) {
      case 'aoi':
        if (event.observer !== this.avatar || event.kind === 'move') return;
        if (event.kind === 'enter') {
          this.leaving.delete(event.subject);
          this.entering.add(event.subject);
        } else {
          this.entering.delete(event.subject);
          this.leaving.add(event.subject);
        }
        return;
      case 'damage':
      case 'heal':
      case 'say':
        if (event.entity === this.avatar || this.sent.has(event.entity)) this.events.push(withStringIds(event));
        return;
      case 'cast-error':
      case 'cast-cancelled':
      case 'print':
        if (event.caster === this.avatar) this.events.push(withStringIds(event));
        return;
      default:
        return;
    }
  }

  /** The view message of this tick (null when nothing changed) and the events to send; `lookup`: this tick's, shared by the room's clients. */
  flush(tick: number, lookup: EntityLookup = new EntityLookup(this.world)): { view: ViewMessage | null; events: ClientWorldEvent[] } {
    const e: EnteredEntity[] = [];
    const m: MovedEntity[] = [];
    const c: number[] = [];
    const l: string[] = [];
    const h: HealthChange[] = [];
    const n: EntityName[] = [];
    if (this.releasedHandles.length > 0) {
      this.freeHandles.push(...this.releasedHandles);
      this.releasedHandles.length = 0;
      this.freeHandles.sort((a, b) => b - a);
    }
    for (const id of this.leaving) {
      if (id !== this.avatar && this.forget(id)) l.push(String(id));
    }
    this.leaving.clear();
    for (const [id, last] of this.sent) {
      const now = lookup.get(id);
      if (now === null) {
        this.forget(id);
        l.push(String(id));
        continue;
      }
      const { xh, yh } = now;
      if (xh !== last.xh || yh !== last.yh) {
        if (this.compact) c.push(last.handle, xh - last.xh, yh - last.yh);
        else m.push([String(id), xh / 100, yh / 100]);
        last.xh = xh;
        last.yh = yh;
      }
      if (now.health !== last.health) {
        h.push([String(id), now.health]);
        last.health = now.health;
      }
    }
    for (const id of this.entering) {
      if (this.sent.has(id)) continue;
      const now = lookup.get(id);
      if (now === null) continue;
      const { xh, yh } = now;
      const handle = this.compact ? (this.freeHandles.pop() ?? this.nextHandle++) : 0;
      e.push(this.compact ? [String(id), now.breed, xh / 100, yh / 100, now.health, handle] : [String(id), now.breed, xh / 100, yh / 100, now.health]);
      this.sent.set(id, { xh, yh, health: now.health, handle });
      const name = this.world.property(id, 'name');
      if (typeof name === 'string') n.push([String(id), name]);
    }
    this.entering.clear();
    const events = this.events;
    this.events = [];
    if (e.length + m.length + c.length + l.length + h.length === 0) return { view: null, events };
    const view: ViewMessage = { t: tick };
    if (e.length > 0) view.e = e;
    if (m.length > 0) view.m = m;
    if (c.length > 0) view.c = c;
    if (l.length > 0) view.l = l;
    if (h.length > 0) view.h = h;
    if (n.length > 0) view.n = n;
    return { view, events };
  }

  /** Stop showing an entity: its compact handle is free again (smallest reused first). */
  private forget(id: EntityId): boolean {
    const last = this.sent.get(id);
    if (last === undefined) return false;
    this.sent.delete(id);
    // Reusable from the next message on: one message never names a handle for two entities.
    if (last.handle > 0) this.releasedHandles.push(last.handle);
    return true;
  }
}

/** An event for a client: entity ids as strings, as the view names them. */
function withStringIds(event: WorldEvent): ClientWorldEvent {
  const out: ClientWorldEvent = { type: event.type };
  for (const [k, v] of Object.entries(event)) {
    out[k] = (k === 'entity' || k === 'by' || k === 'caster') && typeof v === 'number' ? String(v) : v;
  }
  return out;
}
