/**
 * The Redis ownership store against a real redis-server: compare-and-set on
 * (zone, epoch), the saved state moving with the owner, stale owners refused.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisOwnershipStore } from './redis-ownership-store.js';
import { assignZone } from './zone-assignment.js';
import { startRedis, type TestRedis } from './throwaway-redis.js';

describe('RedisOwnershipStore', () => {
  let redis: TestRedis | null;
  let store: RedisOwnershipStore;

  beforeAll(async () => {
    redis = await startRedis();
    if (redis !== null) store = new RedisOwnershipStore(redis.url, 'test');
  });

  afterAll(async () => {
    await store?.close();
    await redis?.stop();
  });

  it('changes owners only from the exact (zone, epoch), moving the saved state with them', async (context) => {
    if (redis === null) return context.skip();
    expect(await store.claim(7, 'z0-0')).toEqual({ zone: 'z0-0', epoch: 1 });
    expect(await store.claim(7, 'z1-0')).toEqual({ zone: 'z0-0', epoch: 1 });
    await store.saveZone('z0-0', { tick: 10, nextId: 8 }, new Map([[7, '{"at":"a"}']]));
    expect(await store.loadZone('z0-0')).toEqual({ tick: 10, nextId: 8, entities: new Map([[7, '{"at":"a"}']]) });
    expect(await store.transfer(7, 'z0-0', 2, 'z1-0', '{"at":"b"}')).toEqual({ ok: false, record: { zone: 'z0-0', epoch: 1 } });
    expect(await store.transfer(7, 'z0-0', 1, 'z1-0', '{"at":"b"}')).toEqual({ ok: true, record: { zone: 'z1-0', epoch: 2 } });
    // The same offer again: refused, the record says where it is.
    expect(await store.transfer(7, 'z0-0', 1, 'z1-0', '{"at":"b"}')).toEqual({ ok: false, record: { zone: 'z1-0', epoch: 2 } });
    expect((await store.loadZone('z0-0')).entities.has(7)).toBe(false);
    expect(await store.loadZone('z1-0')).toEqual({ tick: 0, nextId: 0, entities: new Map([[7, '{"at":"b"}']]) });
    // A stale owner cannot take it back; the owner bumps its epoch.
    expect((await store.reclaim(7, 'z0-0', 1)).ok).toBe(false);
    expect(await store.reclaim(7, 'z1-0', 2)).toEqual({ ok: true, record: { zone: 'z1-0', epoch: 3 } });
    expect((await store.transfer(7, 'z1-0', 2, 'z0-0', '{}')).ok).toBe(false);
    await store.forget(7, 'z0-0');
    expect(await store.owner(7)).toEqual({ zone: 'z1-0', epoch: 3 });
    await store.forget(7, 'z1-0');
    expect(await store.owner(7)).toBeNull();
    expect((await store.loadZone('z1-0')).entities.size).toBe(0);
  });

  it('fenced: a worker takes entities into a zone, or takes them back, only while the zone is assigned to it', async (context) => {
    if (redis === null) return context.skip();
    const mine = new RedisOwnershipStore(redis.url, 'fenced', 'host:1');
    const admin = new Redis(redis.url);
    try {
      await assignZone(admin, 'fenced', 'z1-0', 'host:2');
      expect(await mine.claim(9, 'z0-0')).toEqual({ zone: 'z0-0', epoch: 1 });
      expect((await mine.transfer(9, 'z0-0', 1, 'z1-0', '{}')).ok).toBe(false);
      await assignZone(admin, 'fenced', 'z1-0', 'host:1');
      expect(await mine.transfer(9, 'z0-0', 1, 'z1-0', '{}')).toEqual({ ok: true, record: { zone: 'z1-0', epoch: 2 } });
      await assignZone(admin, 'fenced', 'z1-0', 'host:3');
      expect((await mine.reclaim(9, 'z1-0', 2)).ok).toBe(false);
      await mine.saveZone('z1-0', { tick: 5, nextId: 10 }, new Map([[9, '{"stale":true}']]));
      expect((await mine.loadZone('z1-0')).entities.get(9)).toBe('{}');
    } finally {
      await mine.close();
      admin.disconnect();
    }
  });
});
