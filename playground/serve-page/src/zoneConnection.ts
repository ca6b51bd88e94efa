/**
 * The page's line to the zone server: one Colyseus room at a time (the zone
 * its avatar is in), the protocol's messages passed on to the page, and the
 * hand-over. When the server says `handover`, the page consumes the seat
 * reservation for the next zone's room, then leaves the old one; messages
 * the old room still sends meanwhile are ignored (the next room sends the
 * view afresh), and what the player does meanwhile is not lost: the held
 * velocity is sent again to the new room, casts wait for it.
 */
import type { Client, Room } from '@colyseus/sdk';
import {
  MESSAGE,
  type CastMessage,
  type ErrorMessage,
  type EventsMessage,
  type HandoverMessage,
  type JoinOptions,
  type MoveMessage,
  type ViewMessage,
  type WelcomeMessage,
} from '../../../server/protocol.js';

export interface ZoneConnectionEvents {
  welcome(message: WelcomeMessage): void;
  view(message: ViewMessage): void;
  events(message: EventsMessage): void;
  error(message: ErrorMessage): void;
  /** The avatar is moving to `zone`; `welcome` follows from that zone's room. */
  handover(zone: string): void;
  /** The connection dropped; the Colyseus client tries to reconnect (`disconnected` follows if it cannot). */
  dropped(reason: string): void;
  reconnected(): void;
  /** The page is no longer in any room: the server closed it, or a hand-over failed. */
  disconnected(reason: string): void;
}

/** Casts made while moving between rooms, kept for the next room (more are refused: the player is told). */
const MAX_QUEUED_CASTS = 8;

export class ZoneConnection {
  private room: Room | null = null;
  private switching = false;
  private velocity: MoveMessage = { vx: 0, vy: 0 };
  private queuedCasts: CastMessage[] = [];

  constructor(
    private readonly client: Client,
    private readonly on: ZoneConnectionEvents,
  ) {}

  get connected(): boolean {
    return this.room !== null || this.switching;
  }

  /** Join the room of `zone`; a join the server refuses throws an Error with the server's message. */
  async join(zone: string, options: JoinOptions): Promise<void> {
    if (this.connected) throw new Error('Already in the world: leave first.');
    let room: Room;
    try {
      room = await this.client.joinById(zone, options);
    } catch (e) {
      throw new Error(`Could not join zone ${zone}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.attach(room);
  }

  move(velocity: MoveMessage): void {
    this.velocity = velocity;
    this.room?.send(MESSAGE.move, velocity);
  }

  /** Cast now, or as soon as the next room is joined; false when the page is not in the world. */
  cast(message: CastMessage): boolean {
    if (this.room) {
      this.room.send(MESSAGE.cast, message);
      return true;
    }
    if (!this.switching || this.queuedCasts.length >= MAX_QUEUED_CASTS) return false;
    this.queuedCasts.push(message);
    return true;
  }

  async leave(): Promise<void> {
    const room = this.room;
    this.room = null;
    this.switching = false;
    this.queuedCasts = [];
    await room?.leave(true);
  }

  private attach(room: Room): void {
    this.room = room;
    const current = () => this.room === room;
    room.onMessage(MESSAGE.welcome, (m: WelcomeMessage) => current() && this.on.welcome(m));
    room.onMessage(MESSAGE.view, (m: ViewMessage) => current() && this.on.view(m));
    room.onMessage(MESSAGE.events, (m: EventsMessage) => current() && this.on.events(m));
    room.onMessage(MESSAGE.error, (m: ErrorMessage) => current() && this.on.error(m));
    room.onMessage(MESSAGE.handover, (m: HandoverMessage) => {
      if (current()) void this.handOver(room, m);
    });
    // The client retries a dropped connection several times, dropping again each time: said once.
    let dropped = false;
    room.onDrop((code, reason) => {
      if (!current() || dropped) return;
      dropped = true;
      this.on.dropped(closeText(code, reason));
    });
    room.onReconnect(() => {
      dropped = false;
      if (current()) this.on.reconnected();
    });
    room.onLeave((code, reason) => {
      if (!current()) return;
      this.room = null;
      this.on.disconnected(`The zone's room closed the connection (${closeText(code, reason)}).`);
    });
  }

  private async handOver(old: Room, message: HandoverMessage): Promise<void> {
    this.room = null;
    this.switching = true;
    this.on.handover(message.zone);
    try {
      const next = await this.client.consumeSeatReservation(message.reservation);
      if (!this.switching) {
        await next.leave(true); // the player left meanwhile
        return;
      }
      this.switching = false;
      this.attach(next);
      if (this.velocity.vx !== 0 || this.velocity.vy !== 0) next.send(MESSAGE.move, this.velocity);
      for (const cast of this.queuedCasts) next.send(MESSAGE.cast, cast);
      this.queuedCasts = [];
    } catch (e) {
      this.switching = false;
      this.queuedCasts = [];
      this.on.disconnected(`Could not move to zone ${message.zone}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await old.leave(true).catch(() => {});
    }
  }
}

/** A WebSocket close as text: its code, and its reason without a closing full stop. */
function closeText(code: number, reason: string | undefined): string {
  const why = reason?.trim().replace(/\.$/, '');
  return why ? `code ${code}: ${why}` : `code ${code}`;
}
