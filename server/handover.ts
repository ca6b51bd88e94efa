/**
 * The hand-over protocol between two zones, after KBEngine's cellapp
 * migration and SpatialOS's single write authority:
 *
 *   source                                    target
 *   export + release the entity,
 *   keep a ghost of it, buffer its commands
 *   ── offer(id, from, epoch, entity) ──────▶ compare-and-set the owner record
 *                                              (from, epoch) → (target, epoch+1),
 *                                              moving its saved state with it;
 *                                              import it
 *   ◀───────────────────── accept(epoch+1) ── (a repeated offer is accepted again, not imported twice)
 *   forward the buffered commands, and later ones, to the target;
 *   the ghost now mirrors the target's entity
 *
 * A reject, or no answer within the timeout, is resolved by reading the owner
 * record, never by guessing: the target owns it → as accepted; the source still
 * owns it at the offer's epoch → the source bumps the epoch (so the offer, if it
 * arrives late, is refused) and takes the entity back from its export.
 * Exactly one zone owns the entity at every moment; messages may be lost,
 * repeated or late (server/handover.test.ts checks it against a model).
 */

import type { EntityId } from '../runtime/events/events.js';
import type { OwnershipStore } from './ownership-store.js';
import type { EntityCommand, ZoneBus, ZoneMessage } from './zone-bus.js';

/** What the protocol does to a zone's world. */
export interface HandoverHost {
  readonly zone: string;
  /** Does this zone run the entity now (not a ghost)? */
  owns(id: EntityId): boolean;
  /** Export the entity (JSON), release it, keep a ghost of it in transit. */
  exportAndRelease(id: EntityId): string;
  /** The hand-over failed: drop the transit ghost, import the entity back. */
  restore(id: EntityId, entity: string): void;
  /** The target took it: the transit ghost now mirrors the target's entity. */
  settled(id: EntityId, to: string): void;
  /** An entity arrives: drop a ghost of it, import it. */
  arrive(id: EntityId, entity: string): void;
  apply(id: EntityId, command: EntityCommand): void;
}

/** Told when an entity leaves for good or arrives (a player's avatar: its client moves rooms). */
export interface HandoverListener {
  left?(id: EntityId, to: string, player: string | undefined): void;
  arrived?(id: EntityId, player: string | undefined): void;
}

interface Pending {
  readonly to: string;
  readonly epoch: number;
  readonly entity: string;
  readonly player: string | undefined;
  readonly sentAt: number;
  readonly buffered: EntityCommand[];
  resolving: boolean;
}

/** How long a zone remembers where an entity went, to forward the commands that follow it. */
const MOVED_KEPT_MS = 60_000;

/** Forwarded commands go at most this many zones further (an entity that keeps moving on). */
const MAX_HOPS = 4;

export class Handover {
  /** The epoch this zone owns each of its entities at. */
  readonly epochs = new Map<EntityId, number>();
  private readonly pending = new Map<EntityId, Pending>();
  /** Where entities that left went: their commands follow them. */
  private readonly movedTo = new Map<EntityId, { readonly zone: string; readonly at: number }>();
  private lastPrune = 0;
  private processing = 0;
  handoversOut = 0;
  handoversIn = 0;
  /** Hand-overs taken back after a reject or a timeout. */
  aborted = 0;
  /** Commands that found no owner (the entity is gone). */
  dropped = 0;
  /** Offers that could not be made because the export failed, and the last reason. */
  unexportable = 0;
  lastExportError: string | null = null;
  /** Protocol steps that failed (see guard). */
  failures = 0;
  /** Where failures are reported (a zone logs them). */
  onFailure: (message: string) => void = () => {};
  listener: HandoverListener = {};

  constructor(
    private readonly host: HandoverHost,
    private readonly store: OwnershipStore,
    private readonly bus: ZoneBus,
    private readonly now: () => number,
    private readonly timeoutMs: number,
  ) {}

  /** Hand-overs this zone has not finished, as source or target. */
  get busy(): number {
    return this.pending.size + this.processing;
  }

  inTransit(id: EntityId): boolean {
    return this.pending.has(id);
  }

  /** Start handing `id` over to `to` (the caller checked it crossed the border). False if it cannot go now. */
  offer(id: EntityId, to: string, player?: string): boolean {
    const epoch = this.epochs.get(id);
    if (epoch === undefined || this.pending.has(id)) return false;
    let entity: string;
    try {
      entity = this.host.exportAndRelease(id);
    } catch (error) {
      // It cannot travel now (a cast on a module a reload replaced): it stays, and is offered again later.
      this.unexportable++;
      this.lastExportError = error instanceof Error ? error.message : String(error);
      return false;
    }
    this.epochs.delete(id);
    this.pending.set(id, { to, epoch, entity, player, sentAt: this.now(), buffered: [], resolving: false });
    this.bus.send(to, { type: 'offer', id, from: this.host.zone, epoch, entity, player });
    return true;
  }

  /** A client's command for an entity: applied here, kept until a hand-over ends, or forwarded to the owner. */
  command(id: EntityId, command: EntityCommand, hops = 0): 'applied' | 'buffered' | 'forwarded' | 'unknown' {
    if (this.host.owns(id)) {
      this.host.apply(id, command);
      return 'applied';
    }
    const pending = this.pending.get(id);
    if (pending !== undefined) {
      pending.buffered.push(command);
      return 'buffered';
    }
    const to = this.movedTo.get(id)?.zone;
    if (to !== undefined && hops < MAX_HOPS) {
      this.bus.send(to, { type: 'forward', id, from: this.host.zone, command, hops: hops + 1 });
      return 'forwarded';
    }
    this.dropped++;
    return 'unknown';
  }

  receive(message: ZoneMessage): void {
    switch (message.type) {
      case 'offer':
        this.guard(this.takeOffer(message.id, message.from, message.epoch, message.entity, message.player), message.id);
        return;
      case 'accept': {
        const p = this.pending.get(message.id);
        if (p !== undefined && message.epoch === p.epoch + 1 && message.from === p.to) this.finish(message.id, p, p.to);
        return;
      }
      case 'reject':
        this.guard(this.resolve(message.id), message.id);
        return;
      case 'forward':
        this.command(message.id, message.command, message.hops);
        return;
      default:
        return;
    }
  }

  /** Resolve hand-overs that got no answer in time (call once a tick). */
  checkTimeouts(): void {
    const now = this.now();
    for (const [id, p] of this.pending) if (!p.resolving && now - p.sentAt >= this.timeoutMs) this.guard(this.resolve(id), id);
    // Where entities went matters while their clients' commands can still come here: a while, not for ever.
    if (now - this.lastPrune >= MOVED_KEPT_MS) {
      this.lastPrune = now;
      for (const [id, moved] of this.movedTo) if (now - moved.at >= MOVED_KEPT_MS) this.movedTo.delete(id);
    }
  }

  /**
   * A step of the protocol that failed (Redis unreachable, an import the world refused):
   * reported, never an unhandled rejection that would end the process. A hand-over left
   * open is tried again at its next timeout.
   */
  private guard(work: Promise<void>, id: EntityId): void {
    work.catch((error: unknown) => {
      this.failures++;
      this.onFailure(`hand-over of #${id} at zone ${this.host.zone}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }



  private async takeOffer(id: EntityId, from: string, epoch: number, entity: string, player: string | undefined): Promise<void> {
    this.processing++;
    try {
      const change = await this.store.transfer(id, from, epoch, this.host.zone, entity);
      if (change.ok) {
        this.movedTo.delete(id);
        this.host.arrive(id, entity);
        this.epochs.set(id, epoch + 1);
        this.handoversIn++;
        this.bus.send(from, { type: 'accept', id, from: this.host.zone, epoch: epoch + 1 });
        this.listener.arrived?.(id, player);
      } else if (change.record?.zone === this.host.zone && change.record.epoch === epoch + 1 && this.host.owns(id)) {
        // The same offer again (a repeated message): it is here already.
        this.bus.send(from, { type: 'accept', id, from: this.host.zone, epoch: epoch + 1 });
      } else {
        this.bus.send(from, { type: 'reject', id, from: this.host.zone });
      }
    } finally {
      this.processing--;
    }
  }

  /** What happened to an unanswered or refused offer: the owner record says. */
  private async resolve(id: EntityId): Promise<void> {
    const p = this.pending.get(id);
    if (p === undefined || p.resolving) return;
    p.resolving = true;
    try {
      for (;;) {
        const record = await this.store.owner(id);
        if (record === null) {
          // Taken, then gone for good (killed there) before we asked.
          this.finish(id, p, p.to);
          return;
        }
        if (record.zone !== this.host.zone) {
          this.finish(id, p, record.zone);
          return;
        }
        if (record.epoch !== p.epoch) {
          // The record gives it to this zone at a later epoch: it came back here by another
          // hand-over (running here now), or this zone took it back from its save.
          this.pending.delete(id);
          if (this.host.owns(id)) {
            this.host.settled(id, this.host.zone);
          } else {
            this.host.restore(id, p.entity);
            this.epochs.set(id, record.epoch);
            this.aborted++;
          }
          return;
        }
        const change = await this.store.reclaim(id, this.host.zone, p.epoch);
        if (change.ok) {
          this.pending.delete(id);
          this.host.restore(id, p.entity);
          this.epochs.set(id, change.record!.epoch);
          this.aborted++;
          for (const command of p.buffered) this.host.apply(id, command);
          return;
        }
        // The target's compare-and-set won meanwhile: read again.
      }
    } finally {
      p.resolving = false;
    }
  }

  private finish(id: EntityId, p: Pending, to: string): void {
    if (this.pending.get(id) !== p) return;
    this.pending.delete(id);
    this.movedTo.set(id, { zone: to, at: this.now() });
    this.host.settled(id, to);
    this.handoversOut++;
    for (const command of p.buffered) this.bus.send(to, { type: 'forward', id, from: this.host.zone, command, hops: 1 });
    this.listener.left?.(id, to, p.player);
  }
}
