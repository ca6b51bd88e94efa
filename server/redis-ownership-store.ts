/**
 * The ownership store in Redis, shared by every process of a server: owner
 * records in one hash (`<ns>:owners`, id → "zone|epoch"), each zone's saved
 * entities in a hash of its own (`<ns>:zone:<id>:entities`, id → exported
 * entity JSON). Every compare-and-set is one Lua script, so the owner and
 * the saved state change together, atomically, or not at all.
 */

import { Redis } from 'ioredis';
import type { EntityId } from '../runtime/events/events.js';
import type { OwnerRecord, OwnershipChange, OwnershipStore, ZoneMark } from './ownership-store.js';
import { assignmentKey } from './zone-assignment.js';

/**
 * KEYS: owners, from's entities, to's entities, zone assignment. ARGV: id, from, epoch, to,
 * saved, worker. With a worker key, the target zone must be assigned to that worker: a
 * process taken for dead that comes back cannot take entities for a zone it lost (fencing).
 */
const TRANSFER = `
local now = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[6] ~= '' and redis.call('HGET', KEYS[4], ARGV[4]) ~= ARGV[6] then return {0, now or ''} end
if now ~= ARGV[2] .. '|' .. ARGV[3] then return {0, now or ''} end
local record = ARGV[4] .. '|' .. (tonumber(ARGV[3]) + 1)
redis.call('HSET', KEYS[1], ARGV[1], record)
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5])
return {1, record}
`;

/** KEYS: owners, zone assignment. ARGV: id, zone, epoch, worker (fenced as TRANSFER is). */
const RECLAIM = `
local now = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[4] ~= '' and redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[4] then return {0, now or ''} end
if now ~= ARGV[2] .. '|' .. ARGV[3] then return {0, now or ''} end
local record = ARGV[2] .. '|' .. (tonumber(ARGV[3]) + 1)
redis.call('HSET', KEYS[1], ARGV[1], record)
return {1, record}
`;

/** KEYS: owners, zone's entities. ARGV: id, zone. */
const FORGET = `
local now = redis.call('HGET', KEYS[1], ARGV[1])
if now and string.sub(now, 1, string.len(ARGV[2]) + 1) == ARGV[2] .. '|' then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
`;

/** KEYS: zone's entities, zone's mark, zone assignment. ARGV: zone, worker, mark, then id, saved, id, saved … (fenced as TRANSFER is). */
const SAVE = `
if ARGV[2] ~= '' and redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('SET', KEYS[2], ARGV[3])
return 1
`;

/** KEYS: owners. ARGV: id, zone. Answers the record as it is now. */
const CLAIM = `
local now = redis.call('HGET', KEYS[1], ARGV[1])
if now then return now end
local record = ARGV[2] .. '|1'
redis.call('HSET', KEYS[1], ARGV[1], record)
return record
`;

type Scripted = Redis & {
  ownerTransfer(k1: string, k2: string, k3: string, k4: string, id: string, from: string, epoch: string, to: string, saved: string, worker: string): Promise<[number, string]>;
  ownerReclaim(k1: string, k2: string, id: string, zone: string, epoch: string, worker: string): Promise<[number, string]>;
  ownerForget(k1: string, k2: string, id: string, zone: string): Promise<number>;
  ownerClaim(k1: string, id: string, zone: string): Promise<string>;
  zoneSave(k1: string, k2: string, k3: string, zone: string, worker: string, mark: string, ...entries: string[]): Promise<number>;
};

function parseRecord(text: string | null | undefined): OwnerRecord | null {
  if (text === null || text === undefined || text === '') return null;
  const bar = text.lastIndexOf('|');
  return { zone: text.slice(0, bar), epoch: Number(text.slice(bar + 1)) };
}

export class RedisOwnershipStore implements OwnershipStore {
  private readonly redis: Scripted;

  constructor(
    url: string,
    /** The key prefix: one Redis can hold several servers' worlds. */
    private readonly ns: string,
    /**
     * The worker key of this process when zones are assigned to workers (server/zone-assignment.ts):
     * its hand-overs in and takebacks then need the zone to be assigned to it. '' (one process): no check.
     */
    private readonly worker = '',
  ) {
    const redis = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false });
    redis.defineCommand('ownerTransfer', { numberOfKeys: 4, lua: TRANSFER });
    redis.defineCommand('ownerReclaim', { numberOfKeys: 2, lua: RECLAIM });
    redis.defineCommand('ownerForget', { numberOfKeys: 2, lua: FORGET });
    redis.defineCommand('ownerClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('zoneSave', { numberOfKeys: 3, lua: SAVE });
    this.redis = redis as Scripted;
  }

  private get ownersKey(): string {
    return `${this.ns}:owners`;
  }

  private entitiesKey(zone: string): string {
    return `${this.ns}:zone:${zone}:entities`;
  }

  async claim(id: EntityId, zone: string): Promise<OwnerRecord> {
    return parseRecord(await this.redis.ownerClaim(this.ownersKey, String(id), zone))!;
  }

  async transfer(id: EntityId, from: string, epoch: number, to: string, saved: string): Promise<OwnershipChange> {
    const [ok, now] = await this.redis.ownerTransfer(this.ownersKey, this.entitiesKey(from), this.entitiesKey(to), assignmentKey(this.ns), String(id), from, String(epoch), to, saved, this.worker);
    return { ok: ok === 1, record: parseRecord(now) };
  }

  async reclaim(id: EntityId, zone: string, epoch: number): Promise<OwnershipChange> {
    const [ok, now] = await this.redis.ownerReclaim(this.ownersKey, assignmentKey(this.ns), String(id), zone, String(epoch), this.worker);
    return { ok: ok === 1, record: parseRecord(now) };
  }

  async owner(id: EntityId): Promise<OwnerRecord | null> {
    return parseRecord(await this.redis.hget(this.ownersKey, String(id)));
  }

  async forget(id: EntityId, zone: string): Promise<void> {
    await this.redis.ownerForget(this.ownersKey, this.entitiesKey(zone), String(id), zone);
  }

  async saveZone(zone: string, mark: ZoneMark, entities: ReadonlyMap<EntityId, string>): Promise<void> {
    const entries = [...entities].flatMap(([id, text]) => [String(id), text]);
    await this.redis.zoneSave(this.entitiesKey(zone), `${this.ns}:zone:${zone}:mark`, assignmentKey(this.ns), zone, this.worker, JSON.stringify(mark), ...entries);
  }

  async loadZone(zone: string): Promise<ZoneMark & { entities: Map<EntityId, string> }> {
    const [all, text] = await Promise.all([this.redis.hgetall(this.entitiesKey(zone)), this.redis.get(`${this.ns}:zone:${zone}:mark`)]);
    const mark = text === null ? { tick: 0, nextId: 0 } : (JSON.parse(text) as ZoneMark);
    return { ...mark, entities: new Map(Object.entries(all).map(([id, text]) => [Number(id), text])) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
