/**
 * A zone's saves off the step (server/zone-saver.ts): a round exports a
 * slice after each step and writes once at its end; the next round writes
 * only the entities whose saved text changed; an entity that cannot be
 * exported keeps its last save; saving everything at once (stopping) writes all.
 */
import { describe, expect, it } from 'vitest';
import { MemoryOwnershipStore } from './memory-ownership-store.js';
import { ZoneSaver } from './zone-saver.js';

describe('ZoneSaver', () => {
  it('spreads a save over steps, then writes only what changed', async () => {
    const store = new MemoryOwnershipStore();
    const texts = new Map<number, string>(Array.from({ length: 100 }, (_, i) => [i + 1, `entity ${i + 1} at 0`]));
    const saver = new ZoneSaver(
      {
        zone: 'z0-0',
        store,
        owned: () => texts.keys(),
        owns: (id) => texts.has(id),
        pack: (id) => {
          if (id === 50 && texts.get(50)!.endsWith('stuck')) throw new Error('a cast on replaced code');
          return texts.get(id)!;
        },
        mark: () => ({ tick: 0, nextId: 101 }),
      },
      0, // one look at the clock's worth (16 entities) a step
    );
    const fail = (error: unknown): never => {
      throw error;
    };
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const round = async (tick: number): Promise<number> => {
      saver.start(tick);
      let steps = 0;
      while (saver.busy) {
        saver.continue(fail);
        steps++;
        await settle();
      }
      return steps;
    };
    expect(await round(10)).toBe(7); // 100 entities, 16 a step; the last step's slice starts the write
    let saved = await store.loadZone('z0-0');
    expect(saved.entities.size).toBe(100);
    expect(saved.tick).toBe(10);
    expect(saver.lastRound).toEqual({ visited: 100, written: 100 });

    texts.set(7, 'entity 7 at 3');
    texts.set(8, 'entity 8 at 3');
    texts.set(50, 'entity 50 stuck');
    texts.delete(99); // handed over meanwhile
    saver.forget(99);
    await round(20);
    expect(saver.lastRound).toEqual({ visited: 99, written: 2 });
    expect(saver.unexportable).toBe(1);
    saved = await store.loadZone('z0-0');
    expect(saved.entities.get(7)).toBe('entity 7 at 3');
    expect(saved.entities.get(50)).toBe('entity 50 at 0'); // its last save stands
    expect(saved.tick).toBe(20);

    texts.set(50, 'entity 50 at 9');
    await saver.saveAll(30);
    expect(saver.lastRound).toEqual({ visited: 99, written: 99 });
    expect((await store.loadZone('z0-0')).entities.get(50)).toBe('entity 50 at 9');
  });
});
