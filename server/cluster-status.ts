/**
 * The status of a server whose zones run in several processes, kept in
 * Redis: each process writes its zones' status a few times a second
 * (`<ns>:status`, zone → JSON) and counts the entities it took back after a
 * takeover (`<ns>:recovered`); `GET /status` on any process reads them.
 * Worker heartbeats live here too: `<ns>:worker:<host:pid>` with a short TTL.
 */

import type { Redis } from 'ioredis';
import type { StatusResponse, ZoneStatus } from './protocol.js';

/**
 * A worker whose heartbeat key is older than this is dead. Generous on purpose: a worker
 * starved of CPU for a second or two on a loaded machine is not dead, and taking its zones
 * over would roll them back for nothing.
 */
export const HEARTBEAT_TTL_MS = 4000;
export const HEARTBEAT_EVERY_MS = 500;

/** A worker's heartbeat key, by its worker key (`host:pid`, server/zone-assignment.ts). */
export const heartbeatKey = (ns: string, worker: string): string => `${ns}:worker:${worker}`;

export async function writeZoneStatus(redis: Redis, ns: string, zones: readonly ZoneStatus[]): Promise<void> {
  if (zones.length === 0) return;
  await redis.hset(`${ns}:status`, Object.fromEntries(zones.map((z) => [z.id, JSON.stringify(z)])));
}

export async function countRecovered(redis: Redis, ns: string, n: number): Promise<void> {
  await redis.incrby(`${ns}:recovered`, n);
}

/**
 * Is a zone served now: the worker the assignment names is beating, and has written the zone's
 * status (it runs the zone; its room follows at once)? After a worker's death, not until a
 * survivor took the zone over.
 */
export async function zoneServed(redis: Redis, ns: string, zone: string, knownDead: (worker: string) => boolean = () => false): Promise<boolean> {
  const [holder, status] = await Promise.all([redis.hget(`${ns}:assignment`, zone), redis.hget(`${ns}:status`, zone)]);
  // A worker known to have exited still has a heartbeat key for a few seconds, and the assignment names it until the takeover's write.
  if (holder === null || status === null || knownDead(holder) || (await redis.exists(heartbeatKey(ns, holder))) !== 1) return false;
  return holder.endsWith(`:${(JSON.parse(status) as ZoneStatus).pid}`);
}

export async function readClusterStatus(redis: Redis, ns: string): Promise<StatusResponse> {
  const [all, recovered] = await Promise.all([redis.hgetall(`${ns}:status`), redis.get(`${ns}:recovered`)]);
  const zones = Object.values(all)
    .map((text) => JSON.parse(text) as ZoneStatus)
    .sort((a, b) => a.id.localeCompare(b.id));
  return { zones, handovers: zones.reduce((n, z) => n + z.handoversOut, 0), recovered: Number(recovered ?? 0) };
}
