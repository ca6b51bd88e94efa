/**
 * The Colyseus server of one process: the WebSocket transport, the `zone`
 * room type, and on the same port `GET /status`, `GET /zones` and the browser
 * page (static files from dist/serve-page/, when built). With Redis, the
 * presence and driver are Redis's, so a client that asks any process finds a
 * zone room wherever it runs; without, Colyseus's local ones.
 */

import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Server, matchMaker, type Presence, type ServerOptions } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { WebSocketTransport } from '@colyseus/ws-transport';
import express from 'express';
import { ZONE_ROOM_TYPE, type AvatarResponse, type StatusResponse, type ZonesResponse } from './protocol.js';
import { colyseusLogger } from './colyseus-logger.js';
import { ZoneRoom } from './zone-room.js';

export interface GameServerOptions {
  readonly port: number;
  /** Redis URL for the presence and driver; none: Colyseus's local ones. */
  readonly redis?: string;
  /** The address clients reach this process at (several processes on one machine: one port each). */
  readonly publicAddress?: string;
  readonly status: () => Promise<StatusResponse>;
  readonly zones: () => ZonesResponse;
  /** The zone that owns an entity now (the owner record), or null: where a player comes back to its avatar. */
  readonly whereIs: (id: number) => Promise<{ readonly zone: string; readonly ready: boolean } | null>;
  /** The browser page's folder (dist/serve-page/). */
  readonly pageDir: string;
  /** A game's own Colyseus Server options (serveWorld): its presence, driver, transport, logger … win; its express routes are added beside ours. */
  readonly colyseus?: ServerOptions;
  /** Where Colyseus's warnings and errors go, one line each (server/colyseus-logger.ts). */
  readonly log: (message: string) => void;
}

/** A port another program holds: said before Colyseus tries, so the user gets a sentence, not a stack trace. */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} is in use: stop what runs there, or pass another with --port.`);
  }
}

export async function checkPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? new PortInUseError(port) : error));
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

const PAGE_MISSING = `<!doctype html><meta charset="utf-8"><title>Cantrip zone server</title>
<p>This is a Cantrip zone server. The browser page is not built here (dist/serve-page/ is missing):
connect with the Colyseus SDK to the room of a zone (see <a href="/zones">/zones</a>, <a href="/status">/status</a>),
or build the page.</p>`;

export async function startGameServer(o: GameServerOptions): Promise<Server> {
  await checkPortFree(o.port);
  const game = o.colyseus ?? {};
  const presence: Presence | undefined = game.presence ?? (o.redis !== undefined ? new RedisPresence(o.redis) : undefined);
  const server = new Server({
    transport: game.transport ?? new WebSocketTransport(),
    greet: false,
    gracefullyShutdown: false,
    logger: colyseusLogger(o.log),
    ...game,
    presence,
    driver: game.driver ?? (o.redis !== undefined ? new RedisDriver(o.redis) : undefined),
    publicAddress: game.publicAddress ?? o.publicAddress,
    // A zone's room lives in the process that runs the zone.
    selectProcessIdToCreateRoom: async () => matchMaker.processId,
    express: async (app) => {
      await game.express?.(app);
      app.get('/status', (_req, res) => {
        o.status().then(
          (status) => res.json(status),
          (error: unknown) => res.status(500).json({ error: error instanceof Error ? error.message : String(error) }),
        );
      });
      app.get('/zones', (_req, res) => res.json(o.zones()));
      app.get('/avatar/:id', (req, res) => {
        const id = Number(req.params.id);
        if (!Number.isSafeInteger(id) || id < 1) return void res.status(400).json({ error: `Not an avatar id: ${JSON.stringify(req.params.id).slice(0, 40)}.` });
        o.whereIs(id).then(
          (at) => (at === null ? res.status(404).json({ error: `Avatar ${id} is not in the world.` }) : res.json({ avatar: String(id), ...at } satisfies AvatarResponse)),
          (error: unknown) => res.status(503).json({ error: error instanceof Error ? error.message : String(error) }),
        );
      });
      if (existsSync(o.pageDir)) app.use(express.static(o.pageDir));
      else app.get('/', (_req, res) => res.type('html').send(PAGE_MISSING));
    },
  });
  server.define(ZONE_ROOM_TYPE, ZoneRoom);
  await server.listen(o.port);
  return server;
}

/** Stop serving: rooms with seats reserved and never taken would hold a graceful shutdown for their whole reservation time. */
export async function stopGameServer(server: Server, limitMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([server.gracefullyShutdown(false).catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, limitMs)))]);
  clearTimeout(timer);
  server.transport.shutdown();
}

/**
 * Create the rooms of the zones this process runs. A zone taken over from a dead process may still be
 * listed as that process's room (Colyseus sweeps dead processes only when a request to one times out):
 * its listings go first, so a player joining the zone is not sent to the dead process.
 */
export async function createZoneRooms(zoneIds: Iterable<string>): Promise<void> {
  for (const zoneId of zoneIds) {
    const stale = await matchMaker.driver.findOne({ roomId: zoneId });
    if (stale !== undefined && stale !== null && stale.processId !== matchMaker.processId) await matchMaker.driver.cleanup?.(stale.processId);
    await matchMaker.createRoom(ZONE_ROOM_TYPE, { zoneId });
  }
}
