/**
 * What one client sees: the entities in its avatar's interest range, from
 * the zone world's AOI enter and leave events for that avatar (ghosts from
 * neighbour zones included — the AOI sees them like any entity), sent as one
 * compact `view` message per tick in which anything changed (server/protocol.ts).
 * Moves and health changes are found by comparing the entities in view with
 * what was sent last — the AOI's own move events would cost every observer
 * in the world, not just the avatars. Ids travel as strings (they pass 2^32).
 */

import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import type { World } from '../runtime/world/world.js';
import type { ClientWorldEvent, EnteredEntity, HealthChange, MovedEntity, ViewMessage } from './protocol.js';

interface Sent {
  x: number;
  y: number;
  health: number;
}

const round = (n: number): number => Math.round(n * 100) / 100;

export class ClientView {
  private readonly sent = new Map<EntityId, Sent>();
  private readonly entering = new Set<EntityId>();
  private readonly leaving = new Set<EntityId>();
  private events: ClientWorldEvent[] = [];

  constructor(
    private readonly world: World,
    readonly avatar: EntityId,
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

  /** The view message of this tick (null when nothing changed) and the events to send. */
  flush(tick: number): { view: ViewMessage | null; events: ClientWorldEvent[] } {
    const e: EnteredEntity[] = [];
    const m: MovedEntity[] = [];
    const l: string[] = [];
    const h: HealthChange[] = [];
    for (const id of this.leaving) {
      if (id !== this.avatar && this.sent.delete(id)) l.push(String(id));
    }
    this.leaving.clear();
    for (const [id, last] of this.sent) {
      const now = this.world.entity(id);
      if (now === null) {
        this.sent.delete(id);
        l.push(String(id));
        continue;
      }
      const x = round(now.x);
      const y = round(now.y);
      if (x !== last.x || y !== last.y) {
        m.push([String(id), x, y]);
        last.x = x;
        last.y = y;
      }
      if (now.health !== last.health) {
        h.push([String(id), now.health]);
        last.health = now.health;
      }
    }
    for (const id of this.entering) {
      if (this.sent.has(id)) continue;
      const now = this.world.entity(id);
      if (now === null) continue;
      const x = round(now.x);
      const y = round(now.y);
      e.push([String(id), now.breed, x, y, now.health]);
      this.sent.set(id, { x, y, health: now.health });
    }
    this.entering.clear();
    const events = this.events;
    this.events = [];
    if (e.length + m.length + l.length + h.length === 0) return { view: null, events };
    const view: ViewMessage = { t: tick };
    if (e.length > 0) view.e = e;
    if (m.length > 0) view.m = m;
    if (l.length > 0) view.l = l;
    if (h.length > 0) view.h = h;
    return { view, events };
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
