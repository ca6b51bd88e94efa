/**
 * Hands each world event to the client views it concerns: an AOI event to
 * its observer's views only (there are as many AOI events as entities move
 * in and out of each other's range, and most observers are not players),
 * a cast's errors and prints to its caster's, damage, healing and speech to
 * every view (each keeps those about entities it shows).
 */

import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import type { ClientView } from './client-view.js';

export class ViewRouter {
  private readonly byAvatar = new Map<EntityId, Set<ClientView>>();

  add(view: ClientView): void {
    let set = this.byAvatar.get(view.avatar);
    if (set === undefined) this.byAvatar.set(view.avatar, (set = new Set()));
    set.add(view);
  }

  remove(view: ClientView): void {
    const set = this.byAvatar.get(view.avatar);
    set?.delete(view);
    if (set?.size === 0) this.byAvatar.delete(view.avatar);
  }

  route(event: WorldEvent): void {
    switch (event.type) {
      case 'aoi':
        this.to(event.observer, event);
        return;
      case 'cast-error':
      case 'cast-cancelled':
      case 'print':
        if (event.caster !== null) this.to(event.caster, event);
        return;
      case 'damage':
      case 'heal':
      case 'say':
        for (const set of this.byAvatar.values()) for (const view of set) view.observe(event);
        return;
      default:
        return;
    }
  }

  private to(avatar: EntityId, event: WorldEvent): void {
    const set = this.byAvatar.get(avatar);
    if (set !== undefined) for (const view of set) view.observe(event);
  }
}
