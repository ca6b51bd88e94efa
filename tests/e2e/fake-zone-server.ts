/**
 * A tiny zone server for the browser page's end-to-end tests: real Colyseus
 * rooms (@colyseus/core on a WebSocket transport) that speak the client
 * protocol of server/protocol.ts over a toy world — two zones side by side,
 * two trolls, avatars that walk and hand over between the rooms, two spells
 * — with no Cantrip runtime behind it. It lets the page be tested on its own
 * (view updates, hand-over, errors); `cantrip serve` itself is tested with
 * the page in serve-page-zones.test.ts. Serves the built page at `/` and the
 * world's layout at `/zones`, on one free port, as `cantrip serve` does.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Room, Server, matchMaker, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import {
  ERROR_CODE,
  MESSAGE,
  ZONE_ROOM_TYPE,
  type CastMessage,
  type ClientWorldEvent,
  type ErrorMessage,
  type JoinOptions,
  type MoveMessage,
  type ViewMessage,
  type ZoneRect,
  type ZonesResponse,
} from '../../server/protocol.js';
import { staticFiles } from './static-server.js';

interface FakeEntity {
  readonly key: string;
  readonly breed: string;
  x: number;
  y: number;
  health: number;
  vx: number;
  vy: number;
  /** The zone that owns it. */
  zone: string;
}

export const FAKE_WORLD = { width: 40, height: 20 };
export const FAKE_ZONES: ZoneRect[] = [
  { id: 'z0-0', x: 0, y: 0, width: 20, height: 20 },
  { id: 'z1-0', x: 20, y: 0, width: 20, height: 20 },
];
export const FAKE_SPELLS = ['zap', 'mend'];
const BREEDS = ['Wizard', 'Troll'];
const INTEREST = 8;
const SPEED = 4;
const TICK_MS = 50;
const ZAP_DAMAGE = 10;

/** The one world both rooms share (the rooms run in this process). */
class FakeWorld {
  readonly entities = new Map<string, FakeEntity>();
  private players = 0;

  constructor() {
    this.add({ key: 'troll-west', breed: 'Troll', x: 8, y: 10, health: 60, vx: 0, vy: 0, zone: 'z0-0' });
    this.add({ key: 'troll-east', breed: 'Troll', x: 32, y: 10, health: 60, vx: 0, vy: 0, zone: 'z1-0' });
  }

  add(e: FakeEntity): void {
    this.entities.set(e.key, e);
  }

  newPlayerKey(): string {
    return `player-${++this.players}`;
  }

  zoneAt(x: number, y: number): string {
    return (FAKE_ZONES.find((z) => x >= z.x && x < z.x + z.width && y >= z.y && y < z.y + z.height) ?? FAKE_ZONES[0]!).id;
  }
}

let world = new FakeWorld();

interface Seen {
  x: number;
  y: number;
  health: number;
}

interface PlayerData {
  avatar: string;
  /** What this client was last sent of each entity in its view. */
  seen: Map<string, Seen>;
}

class FakeZoneRoom extends Room {
  private tick = 0;

  override onCreate(options: { zone: string }): void {
    this.roomId = options.zone;
    this.autoDispose = false;
    this.onMessage(MESSAGE.move, (client, message: MoveMessage) => this.move(client, message));
    this.onMessage(MESSAGE.cast, (client, message: CastMessage) => this.cast(client, message));
    this.setSimulationInterval(() => this.step(), TICK_MS);
  }

  override onJoin(client: Client, options: JoinOptions = {}): void {
    let avatar: FakeEntity;
    if (options.handoverAvatar !== undefined) {
      avatar = world.entities.get(options.handoverAvatar)!;
    } else {
      const breed = options.breed ?? BREEDS[0]!;
      if (!BREEDS.includes(breed)) throw new Error(`Unknown breed "${breed}": this world allows ${BREEDS.join(', ')}.`);
      const zone = FAKE_ZONES.find((z) => z.id === this.roomId)!;
      const x = options.x ?? zone.x + zone.width / 2;
      const y = options.y ?? zone.y + zone.height / 2;
      avatar = { key: world.newPlayerKey(), breed, x, y, health: 100, vx: 0, vy: 0, zone: world.zoneAt(x, y) };
      world.add(avatar);
    }
    client.userData = { avatar: avatar.key, seen: new Map() } satisfies PlayerData;
    client.send(MESSAGE.welcome, { avatar: avatar.key, zone: this.roomId, interest: INTEREST, world: FAKE_WORLD, zones: FAKE_ZONES, spells: FAKE_SPELLS });
    if (avatar.zone !== this.roomId) void this.handOver(client, avatar);
  }

  override onLeave(client: Client): void {
    const avatar = world.entities.get((client.userData as PlayerData).avatar);
    // An avatar handed over belongs to the next room now; one that just left the world goes.
    if (avatar && avatar.zone === this.roomId) world.entities.delete(avatar.key);
  }

  private player(client: Client): PlayerData {
    return client.userData as PlayerData;
  }

  private refuse(client: Client, code: ErrorMessage['code'], message: string): void {
    client.send(MESSAGE.error, { code, message } satisfies ErrorMessage);
  }

  private move(client: Client, message: MoveMessage): void {
    const avatar = world.entities.get(this.player(client).avatar);
    if (!avatar || avatar.zone !== this.roomId) return;
    if (!Number.isFinite(message?.vx) || !Number.isFinite(message?.vy)) return this.refuse(client, ERROR_CODE.badMessage, 'move needs finite numbers vx and vy.');
    const length = Math.hypot(message.vx, message.vy);
    const scale = length > SPEED ? SPEED / length : 1;
    avatar.vx = message.vx * scale;
    avatar.vy = message.vy * scale;
  }

  private cast(client: Client, message: CastMessage): void {
    const caster = this.player(client).avatar;
    if (!FAKE_SPELLS.includes(message?.spell)) return this.refuse(client, ERROR_CODE.unknownSpell, `Unknown spell "${String(message?.spell)}": you can cast ${FAKE_SPELLS.join(', ')}.`);
    const target = world.entities.get(message.target ?? caster);
    if (!target) return this.refuse(client, ERROR_CODE.unknownTarget, `No entity "${String(message.target)}" in view.`);
    if (message.spell === 'zap' && target.key === caster) return this.refuse(client, ERROR_CODE.badArguments, 'zap needs another entity as its target.');
    const amount = message.spell === 'zap' ? -ZAP_DAMAGE : ZAP_DAMAGE;
    target.health = Math.max(0, target.health + amount);
    const events: ClientWorldEvent[] = [
      { type: 'say', entity: caster, breed: world.entities.get(caster)?.breed ?? 'Wizard', text: `${message.spell}!` },
      { type: amount < 0 ? 'damage' : 'heal', entity: target.key, breed: target.breed, amount: Math.abs(amount), health: target.health, by: caster },
    ];
    client.send(MESSAGE.events, events);
  }

  private step(): void {
    this.tick++;
    for (const e of world.entities.values()) {
      if (e.zone !== this.roomId || (e.vx === 0 && e.vy === 0)) continue;
      e.x = Math.min(FAKE_WORLD.width - 0.01, Math.max(0, e.x + (e.vx * TICK_MS) / 1000));
      e.y = Math.min(FAKE_WORLD.height - 0.01, Math.max(0, e.y + (e.vy * TICK_MS) / 1000));
    }
    for (const client of this.clients) {
      const avatar = world.entities.get(this.player(client).avatar);
      if (!avatar || avatar.zone !== this.roomId) continue;
      const next = world.zoneAt(avatar.x, avatar.y);
      if (next !== this.roomId) {
        void this.handOver(client, avatar);
        continue;
      }
      this.sendView(client, avatar);
    }
  }

  /** Everything within the avatar's interest, whichever zone owns it, as changes since the last view. */
  private sendView(client: Client, avatar: FakeEntity): void {
    const seen = this.player(client).seen;
    const view: ViewMessage = { t: this.tick };
    const inRange = new Set<string>();
    for (const e of world.entities.values()) {
      if (Math.hypot(e.x - avatar.x, e.y - avatar.y) > INTEREST) continue;
      inRange.add(e.key);
      const before = seen.get(e.key);
      const x = Math.round(e.x * 100) / 100;
      const y = Math.round(e.y * 100) / 100;
      if (!before) (view.e ??= []).push([e.key, e.breed, x, y, e.health]);
      else {
        if (before.x !== x || before.y !== y) (view.m ??= []).push([e.key, x, y]);
        if (before.health !== e.health) (view.h ??= []).push([e.key, e.health]);
      }
      seen.set(e.key, { x, y, health: e.health });
    }
    for (const key of seen.keys()) {
      if (inRange.has(key)) continue;
      (view.l ??= []).push(key);
      seen.delete(key);
    }
    if (view.e || view.m || view.l || view.h) client.send(MESSAGE.view, view);
  }

  private async handOver(client: Client, avatar: FakeEntity): Promise<void> {
    const zone = world.zoneAt(avatar.x, avatar.y);
    avatar.zone = zone;
    const room = await matchMaker.getRoomById(zone);
    const reservation = await matchMaker.reserveSeatFor(room, { handoverAvatar: avatar.key } satisfies JoinOptions);
    client.send(MESSAGE.handover, { zone, reservation });
  }
}

export interface FakeZoneServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Start the fake server serving `pageDir` (a built serve page) on a free port of 127.0.0.1. */
export async function startFakeZoneServer(pageDir: string): Promise<FakeZoneServer> {
  world = new FakeWorld();
  const http = createServer();
  const gameServer = new Server({ transport: new WebSocketTransport({ server: http }), greet: false });
  gameServer.define(ZONE_ROOM_TYPE, FakeZoneRoom);
  await gameServer.listen(0, '127.0.0.1');
  for (const zone of FAKE_ZONES) await matchMaker.createRoom(ZONE_ROOM_TYPE, { zone: zone.id });
  // Colyseus answers its own routes (/matchmake/…); the page and /zones come from here.
  const page = staticFiles(pageDir);
  const colyseus = http.listeners('request') as RequestListener[];
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/zones') {
      const body: ZonesResponse = { world: FAKE_WORLD, zones: FAKE_ZONES, spells: FAKE_SPELLS, breeds: BREEDS };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } else if (path.startsWith('/matchmake')) {
      for (const listener of colyseus) listener(req, res);
    } else {
      page(req, res);
    }
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await gameServer.gracefullyShutdown(false).catch(() => {});
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
