/**
 * The page's line to the zone server: one Colyseus room at a time (the zone
 * its avatar is in), the protocol's messages passed on to the page, and the
 * hand-over. When the server says `handover`, the page consumes the seat
 * reservation for the next zone's room, then leaves the old one; messages
 * the old room still sends meanwhile are ignored (the next room sends the
 * view afresh), and what the player does meanwhile is not lost: the held
 * velocity is sent again to the new room, casts wait for it.
 *
 * When the room dies (its process was killed, the connection dropped), the
 * page comes back to the same avatar by itself: it asks the server where the
 * avatar is now (`locate`: GET /avatar/<id>, the owner record) and joins that
 * zone's room with the welcome's token, again every half second until it
 * works or the avatar is gone — the Colyseus client's own retries of the dead
 * room are turned off (they would go on for a minute). docs/server.md,
 * "Back after a crash".
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
  /** The connection dropped; the page (or, with a server that gives no token, the Colyseus client) tries to get back (`disconnected` follows if it cannot). */
  dropped(reason: string): void;
  /** Back in the world: in the room of `zone` (null: the same room, reconnected by the Colyseus client); `welcome` follows from a new room. */
  reconnected(zone: string | null): void;
  /** The page is no longer in any room: the server closed it, or a hand-over failed. */
  disconnected(reason: string): void;
}

/** Casts made while moving between rooms, kept for the next room (more are refused: the player is told). */
const MAX_QUEUED_CASTS = 8;

/**
 * Where the server says an avatar is now: its zone (null while that zone is being taken over by another
 * process: ask again), or 'gone' when it left the world; throws when the server cannot be asked.
 */
export type LocateAvatar = (avatar: string) => Promise<string | null | 'gone'>;

export interface RejoinTiming {
  /** Between tries. */
  readonly retryMs: number;
  /** Give up after this long (the server keeps an avatar for its grace period, 30 s by default). */
  readonly limitMs: number;
}

const REJOIN_TIMING: RejoinTiming = { retryMs: 500, limitMs: 30_000 };

export class ZoneConnection {
  private room: Room | null = null;
  private switching = false;
  private velocity: MoveMessage = { vx: 0, vy: 0 };
  private queuedCasts: CastMessage[] = [];
  /** The avatar and the welcome's token that brings the page back to it. */
  private avatar: string | null = null;
  private token: string | null = null;
  private compact = false;
  /** Coming back to the avatar after its room died. */
  private rejoining = false;

  constructor(
    private readonly client: Client,
    private readonly on: ZoneConnectionEvents,
    private readonly locate: LocateAvatar = async () => 'gone',
    private readonly timing: RejoinTiming = REJOIN_TIMING,
  ) {}

  get connected(): boolean {
    return this.room !== null || this.switching || this.rejoining;
  }

  /** Join the room of `zone`; a join the server refuses throws an Error with the server's message. */
  async join(zone: string, options: JoinOptions): Promise<void> {
    if (this.connected) throw new Error('Already in the world: leave first.');
    let room: Room;
    this.avatar = null;
    this.token = null;
    this.compact = options.compact === true;
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
    if (!(this.switching || this.rejoining) || this.queuedCasts.length >= MAX_QUEUED_CASTS) return false;
    this.queuedCasts.push(message);
    return true;
  }

  async leave(): Promise<void> {
    const room = this.room;
    this.room = null;
    this.switching = false;
    this.rejoining = false;
    this.queuedCasts = [];
    await room?.leave(true);
  }

  private attach(room: Room): void {
    this.room = room;
    const current = () => this.room === room;
    room.onMessage(MESSAGE.welcome, (m: WelcomeMessage) => {
      if (!current()) return;
      this.avatar = m.avatar;
      this.token = m.token ?? null;
      // With a token the page comes back to its avatar itself (rejoin), wherever the avatar's zone runs now.
      if (this.token !== null && room.reconnection !== undefined) room.reconnection.enabled = false;
      this.on.welcome(m);
    });
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
      if (this.token === null) this.on.dropped(closeText(code, reason));
    });
    room.onReconnect(() => {
      dropped = false;
      if (current()) this.on.reconnected(null);
    });
    room.onLeave((code, reason) => {
      if (!current()) return;
      this.room = null;
      if (this.token !== null && code !== CONSENTED) {
        void this.rejoin(closeText(code, reason));
        return;
      }
      this.on.disconnected(`The zone's room closed the connection (${closeText(code, reason)}).`);
    });
  }

  /** The room died: ask where the avatar is now and join that zone's room with the token, until it works, the avatar is gone, or the player leaves. */
  private async rejoin(reason: string): Promise<void> {
    const avatar = this.avatar!;
    const token = this.token!;
    this.rejoining = true;
    this.on.dropped(reason);
    const until = Date.now() + this.timing.limitMs;
    let last = reason;
    while (this.rejoining) {
      try {
        const zone = await this.locate(avatar);
        if (!this.rejoining) return;
        if (zone === 'gone') return this.stopRejoining('Your avatar left the world while you were away: join again.');
        if (zone === null) throw new Error('its zone is being taken over by another process');
        const room = await this.client.joinById(zone, { rejoin: token, compact: this.compact } satisfies JoinOptions);
        if (!this.rejoining) {
          await room.leave(true); // the player left meanwhile
          return;
        }
        this.rejoining = false;
        this.attach(room);
        this.on.reconnected(zone);
        if (this.velocity.vx !== 0 || this.velocity.vy !== 0) room.send(MESSAGE.move, this.velocity);
        for (const cast of this.queuedCasts) room.send(MESSAGE.cast, cast);
        this.queuedCasts = [];
        return;
      } catch (e) {
        last = e instanceof Error ? e.message : String(e);
      }
      if (Date.now() >= until) return this.stopRejoining(`Could not get back to your avatar within ${this.timing.limitMs / 1000} s (${last}).`);
      await new Promise((resolve) => setTimeout(resolve, this.timing.retryMs));
    }
  }

  private stopRejoining(reason: string): void {
    this.rejoining = false;
    this.queuedCasts = [];
    this.on.disconnected(reason);
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

/** The close code of a leave the client asked for (Colyseus's CloseCode.CONSENTED). */
const CONSENTED = 4000;

/** A WebSocket close as text: its code, and its reason without a closing full stop. */
function closeText(code: number, reason: string | undefined): string {
  const why = reason?.trim().replace(/\.$/, '');
  return why ? `code ${code}: ${why}` : `code ${code}`;
}
