/**
 * What a zone saves and hands over for one entity: its export (the runtime's
 * entity with its casts in flight), and what the server keeps beside it —
 * the index of its next scenario cast (server/scenario-casts.ts) and, for a
 * player's avatar, the avatar's secret, so the player can come back to it
 * after a hand-over or after its zone was taken over from a save.
 */

import type { ExportedEntity } from '../runtime/world/world.js';

export interface TravellingEntity {
  readonly entity: ExportedEntity;
  readonly nextCast?: number;
  /** The avatar's secret, if it is a player's. */
  readonly player?: string;
}

export function packEntity(travelling: TravellingEntity): string {
  return JSON.stringify(travelling);
}

export function unpackEntity(text: string): TravellingEntity {
  return JSON.parse(text) as TravellingEntity;
}
