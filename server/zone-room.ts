/**
 * One zone as a Colyseus room (room type `zone`, roomId the zone id): players
 * join it, get an avatar of a breed the scenario allows, see what their
 * avatar's AOI sees (server/client-view.ts) and send `move` and `cast`, each
 * checked (server/client-messages.ts) and rate-limited; anything refused is
 * answered with an `error`. The zone is stepped by the process that runs it;
 * after each step the room sends every client its view. An avatar handed over
 * to another zone takes its client along: a seat is reserved in that zone's
 * room first, then the client is told (`handover`); its commands sent here
 * meanwhile follow the avatar (the hand-over forwards them).
 */

import { randomUUID } from 'node:crypto';
import { CloseCode, ErrorCode, Room, ServerError, matchMaker, type Client } from '@colyseus/core';
import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import { ClientView } from './client-view.js';
import { checkCast, checkMove } from './client-messages.js';
import { EntityLookup } from './entity-lookup.js';
import { ViewRouter } from './view-router.js';
import { ERROR_CODE, MESSAGE, type BreedLook, type ErrorMessage, type HandoverMessage, type JoinOptions, type WelcomeMessage } from './protocol.js';
import { RateLimiter } from './rate-limiter.js';
import { servedWorld, type ServedWorld } from './served-world.js';
import { castableSpells } from './served-scenario.js';
import type { ZoneRuntime } from './zone.js';
import type { EntityCommand } from './zone-bus.js';


/** Messages a client may send a second on average, and in a burst. */
const MESSAGES_PER_SECOND = 30;
const MESSAGE_BURST = 60;

interface Session {
  readonly client: Client;
  readonly avatar: EntityId;
  readonly view: ClientView;
  readonly limiter: RateLimiter;
  /** The speed a move is clamped to (the avatar's when it joined here). */
  readonly speed: number;
  /** It asked for the compact view encoding (kept across hand-overs). */
  readonly compact: boolean;
  /** Its avatar went to another zone: it is on its way there. */
  moved: boolean;
  /** Its player came back to the avatar on another connection (a rejoin): this one's leave leaves the avatar be. */
  replaced: boolean;
  lastFloodAnswer: number;
}

export interface ZoneRoomOptions {
  readonly zoneId: string;
}

export class ZoneRoom extends Room {
  private served!: ServedWorld;
  private zone!: ZoneRuntime;
  private readonly sessions = new Map<string, Session>();
  private readonly views = new ViewRouter();
  private castable = new Set<string>();
  private looks: Record<string, BreedLook> = {};
  private readonly detach: (() => void)[] = [];
  /** Avatars handed in whose clients have not taken their seats yet. */
  private readonly orphanTimers = new Map<EntityId, NodeJS.Timeout>();

  override onCreate(options: ZoneRoomOptions): void {
    this.served = servedWorld();
    const zone = this.served.zones.get(options.zoneId);
    if (zone === undefined) throw new ServerError(ErrorCode.MATCHMAKE_INVALID_ROOM_ID, `This process does not run zone ${options.zoneId}.`);
    this.zone = zone;
    this.roomId = zone.id;
    this.autoDispose = false;
    this.maxClients = 2000;
    for (const s of this.served.spells) this.castable.add(s);
    for (const b of zone.world.breeds.breeds) if (!b.abstract) this.looks[b.name] = { color: b.color, glyph: b.glyph };
    this.detach.push(zone.onEvent((event) => this.observe(event)));
    this.detach.push(zone.onStep(() => this.sendViews()));
    zone.onAvatarLeft = (id, to, secret) => void this.follow(id, to, secret).catch(() => {});
    zone.onAvatarArrived = (id) => this.expectClient(id);
    // Avatars with no player here yet: a zone taken over from its save brings its players' avatars back; they wait for them.
    for (const id of zone.players.keys()) this.expectClient(id);
    this.onMessage(MESSAGE.move, (client, message) => this.guarded(client, (s) => this.move(s, message)));
    this.onMessage(MESSAGE.cast, (client, message) => this.guarded(client, (s) => this.cast(s, message)));
    this.onMessage('*', (client, type) => this.refuse(client, { code: ERROR_CODE.badMessage, message: `Unknown message type ${JSON.stringify(String(type)).slice(0, 80)}: send move or cast.` }));
  }

  override async onJoin(client: Client, options: JoinOptions = {}): Promise<void> {
    const avatar = options.rejoin !== undefined ? this.returningAvatar(options.rejoin) : options.handoverAvatar !== undefined ? this.arrivingAvatar(options) : await this.newAvatar(options);
    const world = this.zone.world;
    const session: Session = {
      client,
      avatar,
      view: new ClientView(world, avatar, options.compact === true),
      compact: options.compact === true,
      limiter: new RateLimiter(MESSAGES_PER_SECOND, MESSAGE_BURST),
      speed: world.stat(avatar, 'speed'),
      moved: false,
      replaced: false,
      lastFloodAnswer: 0,
    };
    this.sessions.set(client.sessionId, session);
    this.views.add(session.view);
    const welcome: WelcomeMessage = {
      avatar: String(avatar),
      zone: this.zone.id,
      interest: world.stat(avatar, 'interest'),
      world: { width: this.served.grid.width, height: this.served.grid.height },
      zones: this.served.grid.rects(),
      spells: [...this.castable],
      breeds: this.looks,
      token: `${avatar}.${this.zone.players.get(avatar)}`,
    };
    client.send(MESSAGE.welcome, welcome);
  }

  override onLeave(client: Client, code?: number): void {
    const s = this.sessions.get(client.sessionId);
    this.sessions.delete(client.sessionId);
    if (s !== undefined) this.views.remove(s.view);
    if (s === undefined || s.moved || s.replaced) return;
    // The player left the game (Leave): its avatar goes with it. A connection that dropped keeps the
    // avatar for the grace period: the player comes back to it with its token (`rejoin`).
    if (code === CloseCode.CONSENTED) {
      if (this.zone.owns(s.avatar)) this.zone.world.despawn(s.avatar);
    } else {
      this.expectClient(s.avatar);
    }
  }

  override onDispose(): void {
    for (const d of this.detach) d();
    for (const t of this.orphanTimers.values()) clearTimeout(t);
  }

  /**
   * An avatar waits for its player: handed in from another zone (a seat is reserved here), its
   * connection dropped, or its zone taken over from a save. One whose player does not come within
   * the grace period (it left the game) leaves the world.
   */
  private expectClient(id: EntityId): void {
    clearTimeout(this.orphanTimers.get(id));
    const timer = setTimeout(() => {
      this.orphanTimers.delete(id);
      const claimed = [...this.sessions.values()].some((s) => s.avatar === id && !s.moved);
      if (!claimed && this.zone.owns(id) && this.zone.players.has(id)) this.zone.world.despawn(id);
    }, this.served.rejoinGraceMs);
    timer.unref();
    this.orphanTimers.set(id, timer);
  }

  /** An avatar handed over from another zone: its client brings the avatar's secret in the seat reservation. */
  private arrivingAvatar(options: JoinOptions): EntityId {
    const id = Number(options.handoverAvatar);
    if (!Number.isSafeInteger(id) || !this.zone.owns(id) || this.zone.players.get(id) !== options.handoverSecret) {
      throw new ServerError(ErrorCode.AUTH_FAILED, 'This seat is for an avatar handed over to this zone; join with a breed to start a new one.');
    }
    clearTimeout(this.orphanTimers.get(id));
    this.orphanTimers.delete(id);
    return id;
  }

  /**
   * A player coming back to its avatar with the welcome's token: after a dropped connection, or after the
   * process running its zone died and another took the zone over from its save. A connection of the same
   * player still in the room (not yet seen to drop) is replaced.
   */
  private returningAvatar(token: unknown): EntityId {
    const [idText, secret] = typeof token === 'string' ? token.split('.', 2) : [];
    const id = Number(idText);
    if (!Number.isSafeInteger(id) || secret === undefined || !this.zone.owns(id) || this.zone.players.get(id) !== secret) {
      throw new ServerError(ErrorCode.AUTH_FAILED, `That avatar is not in zone ${this.zone.id} (GET /avatar/<id> says where it is), or it left the world: join with a breed to start a new one.`);
    }
    for (const s of this.sessions.values()) {
      if (s.avatar !== id || s.moved) continue;
      s.replaced = true;
      this.sessions.delete(s.client.sessionId);
      this.views.remove(s.view);
      s.client.leave(CloseCode.CONSENTED);
    }
    clearTimeout(this.orphanTimers.get(id));
    this.orphanTimers.delete(id);
    return id;
  }

  private async newAvatar(options: JoinOptions): Promise<EntityId> {
    const allowed = this.served.playerBreeds;
    const breed = options.breed ?? allowed[0]!;
    if (typeof breed !== 'string' || !allowed.includes(breed)) {
      throw new ServerError(ErrorCode.APPLICATION_ERROR, `Breed ${JSON.stringify(String(breed)).slice(0, 60)} is not one players may take here: choose one of ${allowed.join(', ')}.`);
    }
    const { width, height } = this.served.grid;
    const inWorld = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max;
    const x = inWorld(options.x, width) ? options.x : this.served.spawn.x;
    const y = inWorld(options.y, height) ? options.y : this.served.spawn.y;
    const name = typeof options.name === 'string' && options.name.length > 0 ? options.name.slice(0, 40) : 'player';
    return this.zone.spawnAvatar(breed, x, y, name, randomUUID());
  }

  /** Rate limit, then the handler; a message that throws is answered, never a crash. */
  private guarded(client: Client, handle: (s: Session) => void): void {
    const s = this.sessions.get(client.sessionId);
    if (s === undefined) {
      this.refuse(client, { code: ERROR_CODE.noAvatar, message: 'You have no avatar in this zone yet.' });
      return;
    }
    if (!s.limiter.take()) {
      const now = Date.now();
      if (now - s.lastFloodAnswer >= 1000) {
        s.lastFloodAnswer = now;
        this.refuse(client, { code: ERROR_CODE.flood, message: `Too many messages: at most ${MESSAGES_PER_SECOND} a second. Messages past that are dropped.` });
      }
      return;
    }
    try {
      handle(s);
    } catch (error) {
      this.refuse(client, { code: ERROR_CODE.castFailed, message: error instanceof Error ? error.message : String(error) });
    }
  }

  private move(s: Session, message: unknown): void {
    const checked = checkMove(message, s.speed);
    if (!checked.ok) return this.refuse(s.client, checked.error);
    this.command(s, checked.command);
  }

  private cast(s: Session, message: unknown): void {
    const caster = (message as { caster?: unknown } | null)?.caster;
    if (caster !== undefined && caster !== String(s.avatar)) {
      return this.refuse(s.client, { code: ERROR_CODE.notYourEntity, message: 'You cast as your own avatar only: leave out caster.' });
    }
    const checked = checkCast(message, this.castable, (id) => id === s.avatar || s.view.sees(id));
    if (!checked.ok) return this.refuse(s.client, checked.error);
    this.command(s, checked.command);
  }

  /** Apply, keep or forward a checked command; an avatar that is gone (it died) is said so. */
  private command(s: Session, command: EntityCommand): void {
    if (this.zone.command(s.avatar, command) === 'unknown') {
      this.refuse(s.client, { code: ERROR_CODE.noAvatar, message: 'Your avatar is gone (it died, or left the world): join again for a new one.' });
    }
  }

  private refuse(client: Client, error: ErrorMessage): void {
    client.send(MESSAGE.error, error);
  }

  private observe(event: WorldEvent): void {
    // Spells reloaded: what players may cast follows (a new spell, one gone).
    if (event.type === 'spells-reload') this.castable = new Set(castableSpells(this.zone.world));
    this.views.route(event);
  }

  private sendViews(): void {
    const lookup = new EntityLookup(this.zone.world);
    for (const s of this.sessions.values()) {
      if (s.moved) continue;
      const { view, events } = s.view.flush(this.zone.tick, lookup);
      if (view !== null) s.client.send(MESSAGE.view, view);
      if (events.length > 0) s.client.send(MESSAGE.events, events);
    }
  }

  /** The avatar went to zone `to`: reserve the client's seat there, then tell it to move. */
  private async follow(id: EntityId, to: string, secret: string): Promise<void> {
    const s = [...this.sessions.values()].find((x) => x.avatar === id);
    if (s === undefined) return;
    s.moved = true;
    this.views.remove(s.view);
    try {
      const reservation = await matchMaker.joinById(to, { handoverAvatar: String(id), handoverSecret: secret, compact: s.compact } satisfies JoinOptions);
      const message: HandoverMessage = { zone: to, reservation };
      s.client.send(MESSAGE.handover, message);
    } catch (error) {
      this.refuse(s.client, { code: ERROR_CODE.noAvatar, message: `Your avatar moved to zone ${to}, whose room could not take you (${error instanceof Error ? error.message : String(error)}): join it again.` });
    }
  }
}
