/**
 * Which worker process runs each zone, in Redis (`<ns>:assignment`, zone →
 * worker key `host:pid`), so that supervisors on several machines serving one
 * world see each other's zones, and exactly one of them takes over a zone
 * whose worker stopped beating: the change is a compare-and-set.
 */

import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

/** KEYS: assignment. ARGV: zone, from, to. */
const REASSIGN = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/**
 * KEYS: assignment. ARGV: zone, worker, heartbeat key prefix. Answers 'fresh' (nobody had
 * it), 'recover' (a dead worker had it: take it over from its save) or the live holder's key.
 */
const CLAIM = `
local now = redis.call('HGET', KEYS[1], ARGV[1])
if now and now ~= ARGV[2] and redis.call('EXISTS', ARGV[3] .. now) == 1 then return now end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if now then return 'recover' end
return 'fresh'
`;

/** What claiming a zone found: nobody had it, a dead worker had it, or a live one has it. */
export type ZoneClaim = { readonly kind: 'fresh' } | { readonly kind: 'recover' } | { readonly kind: 'taken'; readonly by: string };

/** Claim `zone` for `worker` unless a live worker has it (its heartbeat key under `heartbeatPrefix`). */
export async function claimZone(redis: Redis, ns: string, zone: string, worker: string, heartbeatPrefix: string): Promise<ZoneClaim> {
  const answer = String(await redis.eval(CLAIM, 1, assignmentKey(ns), zone, worker, heartbeatPrefix));
  return answer === 'fresh' || answer === 'recover' ? { kind: answer } : { kind: 'taken', by: answer };
}

/** This process's worker key: unique across machines. */
export function workerKey(pid: number = process.pid): string {
  return `${hostname()}:${pid}`;
}

export const assignmentKey = (ns: string): string => `${ns}:assignment`;

export async function assignZone(redis: Redis, ns: string, zone: string, worker: string): Promise<void> {
  await redis.hset(assignmentKey(ns), zone, worker);
}

/** Give `zone` to `to` if `from` still has it; true when this call made the change. */
export async function reassignZone(redis: Redis, ns: string, zone: string, from: string, to: string): Promise<boolean> {
  return (await redis.eval(REASSIGN, 1, assignmentKey(ns), zone, from, to)) === 1;
}

export async function readAssignment(redis: Redis, ns: string): Promise<Map<string, string>> {
  return new Map(Object.entries(await redis.hgetall(assignmentKey(ns))));
}
