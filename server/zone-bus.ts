/**
 * How zones talk to each other: hand-over offers and answers, messages
 * forwarded to an entity's new owner, ghosts of entities near a border, and
 * damage dealt to a ghost sent to its owner. In one process a local bus; across
 * processes Redis pub/sub (server/redis-zone-bus.ts). Delivery is at most
 * once and may reorder between senders: the hand-over protocol is safe under
 * lost, repeated and late messages (server/handover.ts; its model test).
 */

import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import type { MirrorEffect } from '../runtime/world/world.js';
import type { CastArgument } from './protocol.js';

/** The source offers an entity (its export, as JSON) at the epoch it owns it with. */
export interface OfferMessage {
  readonly type: 'offer';
  readonly id: EntityId;
  readonly from: string;
  readonly epoch: number;
  readonly entity: string;
  /** The client session whose avatar it is, if a player's: the target expects that client. */
  readonly player?: string;
}

/** The target took it: it owns the entity at `epoch` now. */
export interface AcceptMessage {
  readonly type: 'accept';
  readonly id: EntityId;
  readonly from: string;
  readonly epoch: number;
}

/** The target refused (the record was not the offer's): the source reads the record to learn what happened. */
export interface RejectMessage {
  readonly type: 'reject';
  readonly id: EntityId;
  readonly from: string;
}

/** A command for an entity (a client's, or what a spell did to its ghost), forwarded to the zone that owns it now. */
export interface ForwardMessage {
  readonly type: 'forward';
  readonly id: EntityId;
  readonly from: string;
  readonly command: EntityCommand;
  /** Zones it has passed through: a command is forwarded at most a few times. */
  readonly hops: number;
}

export type EntityCommand =
  | { readonly kind: 'move'; readonly vx: number; readonly vy: number }
  | { readonly kind: 'cast'; readonly spell: string; readonly target: EntityId | null; readonly args: readonly CastArgument[] }
  /** What a spell did to the entity's ghost in another zone (damage, healing, a buff, a property, speech): the owner does it. */
  | { readonly kind: 'effect'; readonly effect: MirrorEffect };

/** [id, breed, x, y, health] of each entity of `from` within interest range of the receiver. */
export interface GhostsMessage {
  readonly type: 'ghosts';
  readonly from: string;
  readonly tick: number;
  readonly entities: readonly (readonly [EntityId, string, number, number, number])[];
}

/** What a spell in `from` did to a ghost of an entity the receiver owns. */
export interface GhostEffectMessage {
  readonly type: 'ghost-effect';
  readonly from: string;
  readonly effect: MirrorEffect;
}

/** What happened to entities of `from` that the receiver shows as ghosts (speech, damage, healing, buffs): for the receiver's clients. */
export interface GhostEventsMessage {
  readonly type: 'ghost-events';
  readonly from: string;
  readonly events: readonly WorldEvent[];
}

export type ZoneMessage = OfferMessage | AcceptMessage | RejectMessage | ForwardMessage | GhostsMessage | GhostEffectMessage | GhostEventsMessage;

export interface ZoneBus {
  /** Deliver messages addressed to `zone` to `handler` (one handler per zone). */
  subscribe(zone: string, handler: (message: ZoneMessage) => void): Promise<void>;
  unsubscribe(zone: string): Promise<void>;
  send(zone: string, message: ZoneMessage): void;
  close(): Promise<void>;
}
