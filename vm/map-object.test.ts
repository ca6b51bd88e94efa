import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjMap } from './map-object.js';
import type { HostObject, Value } from './value.js';

/** A handle to entity `id`: two handles to one entity are different objects with one mapKey. */
function handle(id: number, withMapKey = true): HostObject {
  return {
    objectType: 'host',
    hostType: 'entity',
    getProperty: () => undefined,
    setProperty: () => {},
    invokeMethod: () => undefined,
    display: () => `entity#${id}`,
    equals: (other) => other.display() === `entity#${id}`,
    ...(withMapKey ? { mapKey: () => `entity#${id}` } : {}),
  };
}

describe('ObjMap', () => {
  it('keeps insertion order across kinds of key, and a string key apart from a number key', () => {
    const map = new ObjMap();
    expect(map.set('b', 1)).toBe(true);
    expect(map.set(1, 2)).toBe(true);
    expect(map.set('1', 3)).toBe(true);
    expect(map.set(true, 4)).toBe(true);
    expect(map.set('b', 5)).toBe(false); // an existing key keeps its place
    expect(map.keys()).toEqual(['b', 1, '1', true]);
    expect(map.values()).toEqual([5, 2, 3, 4]);
    expect([...map.pairs()]).toEqual([['b', 5], [1, 2], ['1', 3], [true, 4]]);
    expect(map.get(1)).toBe(2);
    expect(map.get('1')).toBe(3);
    expect(map.size).toBe(4);
  });

  it('gives a -0 key back with its sign until the entry is removed', () => {
    const map = new ObjMap();
    map.set(-0, 'a');
    map.set(0, 'b'); // the same key
    expect(Object.is(map.keys()[0], -0)).toBe(true);
    expect(map.get(0)).toBe('b');
    expect(map.delete(-0)).toBe('b');
    map.set(0, 'c');
    expect(Object.is(map.keys()[0], 0)).toBe(true);
    expect(Object.is([...map.pairs()][0]![0], 0)).toBe(true);
  });

  it('finds one entry for two handles to one entity, and keeps the handle it was added with', () => {
    const map = new ObjMap();
    const first = handle(7);
    const second = handle(7);
    expect(map.set(first, 'x')).toBe(true);
    expect(map.set(second, 'y')).toBe(false);
    expect(map.has(second)).toBe(true);
    expect(map.get(first)).toBe('y');
    expect(map.keys()[0]).toBe(first);
    expect([...map.pairs()][0]![0]).toBe(first);
    expect(map.delete(second)).toBe('y');
    expect(map.has(first)).toBe(false);
    map.set(second, 'z');
    expect(map.keys()[0]).toBe(second);
    expect(map.get('entity#7')).toBeUndefined(); // the token is not the string
  });

  it('keys a host object without mapKey by reference', () => {
    const map = new ObjMap();
    const a = handle(1, false);
    map.set(a, 1);
    expect(map.has(a)).toBe(true);
    expect(map.has(handle(1, false))).toBe(false);
  });

  it('answers undefined for a value that cannot be a key', () => {
    const map = new ObjMap();
    expect(map.get(null)).toBeUndefined();
    expect(map.has(null)).toBe(false);
    expect(map.delete(null)).toBeUndefined();
  });
});

/**
 * The map as a spell sees it, written plainly: entries in insertion order,
 * keys compared as \`==\` compares them (0 and -0 one key, which keeps the
 * sign it was first added with until removed).
 */
class ReferenceMap {
  readonly entries: [Value, Value][] = [];
  private find(key: Value): number {
    return this.entries.findIndex(([k]) => k === key);
  }
  get(key: Value): Value | undefined {
    const i = this.find(key);
    return i < 0 ? undefined : this.entries[i]![1];
  }
  set(key: Value, value: Value): boolean {
    const i = this.find(key);
    if (i >= 0) this.entries[i]![1] = value;
    else this.entries.push([key, value]);
    return i < 0;
  }
  delete(key: Value): Value | undefined {
    const i = this.find(key);
    if (i < 0) return undefined;
    return this.entries.splice(i, 1)[0]![1];
  }
}

type MapOp = { op: 'set' | 'store' | 'delete' | 'get' | 'has' | 'lookup'; key: Value; value: number };

describe('ObjMap slots (the integer keys kept in an array)', () => {
  it('keep the insertion order across slot keys and other keys, and move keys in as they grow', () => {
    const map = new ObjMap();
    map.set('a', 1);
    map.set(30, 2); // beyond what the slots may cover with two entries: a hash entry
    for (let k = 0; k < 20; k++) map.store(k, k * 10); // the slots grow past 30 on the way
    map.set(true, 3);
    expect(map.keys().slice(0, 4)).toEqual(['a', 30, 0, 1]);
    expect(map.get(30)).toBe(2);
    expect(map.lookup(19)).toBe(190);
    expect(map.delete(30)).toBe(2);
    expect(map.set(30, 4)).toBe(true); // back, now last
    expect(map.keys().at(-1)).toBe(30);
    expect(map.values().at(-1)).toBe(4);
    expect(map.size).toBe(23);
    expect(map.store(5, 51)).toBe(false);
    expect([...map.pairs()][6]).toEqual([5, 51]); // after "a" and 0 … 4 (30 went last)
  });

  it('move in a key that was a hash entry when the slots grow to cover it, keeping its place', () => {
    const map = new ObjMap();
    for (let k = 0; k < 10; k++) map.store(k, k); // slots 0 … 15 by now
    for (let k = 0; k < 8; k++) map.delete(k); // two entries left: 8 and 9
    map.store(16, 'sixteen'); // too sparse for the slots to grow: a hash entry
    for (let k = 10; k < 14; k++) map.store(k, k);
    map.store(17, 'seventeen'); // dense enough again: the slots grow past 17, and 16 moves in
    expect(map.lookup(16)).toBe('sixteen');
    expect(map.store(16, 'again')).toBe(false);
    expect(map.keys()).toEqual([8, 9, 16, 10, 11, 12, 13, 17]);
    expect(map.values()).toEqual([8, 9, 'again', 10, 11, 12, 13, 'seventeen']);
    expect(map.delete(16)).toBe('again');
    expect(map.has(16)).toBe(false);
  });

  it('go when removals leave them sparse, their entries back in the hash in their places', () => {
    const map = new ObjMap();
    for (let k = 0; k < 1000; k++) map.store(k, k);
    map.set('x', 'y');
    for (let k = 0; k < 1000; k++) if (k % 10 !== 3) map.delete(k);
    expect(map.size).toBe(101);
    // The memory bound itself (a private field): one slot in ten used, so the slots went.
    expect((map as unknown as { slots: unknown[] }).slots.length).toBe(0);
    expect(map.keys()).toEqual([...Array.from({ length: 100 }, (_, i) => i * 10 + 3), 'x']);
    expect(map.lookup(503)).toBe(503);
    expect(map.store(503, 'again')).toBe(false);
    expect(map.get(503)).toBe('again');
    expect(map.store(4, 4)).toBe(true); // a new key, last in the order
    expect(map.keys().at(-1)).toBe(4);
    expect(map.delete(993)).toBe(993);
    expect(map.has(993)).toBe(false);
  });

  it('are not dropped and grown again by a key added and removed by turns (each would be a pass over them)', () => {
    const map = new ObjMap();
    for (let k = 0; k < 16_000; k += 16) map.store(k, k); // sparse: all but 0 in the hash
    map.store(1001, 'odd'); // dense enough now: the slots grow to cover it, 65 of 1024 used
    const slots = () => (map as unknown as { slots: unknown[] }).slots.length;
    expect(slots()).toBe(1024);
    for (let turn = 0; turn < 100; turn++) {
      expect(map.delete(1001)).toBe('odd');
      expect(slots()).toBe(1024);
      expect(map.store(1001, 'odd')).toBe(true);
    }
    expect(slots()).toBe(1024); // sparse, but not paid for: half their length removed first
    expect(map.lookup(992)).toBe(992);
    expect(map.size).toBe(1001);
  });

  it('behave as the plain ordered map under any sequence of operations (fixed seed)', () => {
    const key = fc.oneof(
      fc.integer({ min: 0, max: 70 }),
      fc.integer({ min: -3, max: 5000 }),
      fc.constantFrom(-0, 0.5, 2 ** 32, 2 ** 32 - 1, 1e21, -1),
      fc.constantFrom('0', '1', 'a', 'b'),
      fc.boolean(),
    );
    const op = fc.record({ op: fc.constantFrom('set', 'store', 'delete', 'get', 'has', 'lookup'), key, value: fc.integer() }) as fc.Arbitrary<MapOp>;
    // Runs of stores and removals over a wider range, so the slots grow long and then go sparse.
    const sweep = fc
      .record({ from: fc.integer({ min: 0, max: 200 }), length: fc.integer({ min: 1, max: 200 }), remove: fc.boolean(), step: fc.integer({ min: 1, max: 3 }) })
      .map(({ from, length, remove, step }) =>
        Array.from({ length }, (_, i): MapOp => ({ op: remove ? 'delete' : 'store', key: from + i * step, value: from + i })),
      );
    const ops = fc.array(fc.oneof(op.map((o) => [o]), sweep), { maxLength: 40 }).map((chunks) => chunks.flat());
    fc.assert(
      fc.property(ops, (ops) => {
        const map = new ObjMap();
        const reference = new ReferenceMap();
        for (const { op: name, key: k, value } of ops) {
          switch (name) {
            case 'set':
              expect(map.set(k, value)).toBe(reference.set(k, value));
              break;
            case 'store':
              // The instructions' fast path takes strings and numbers but -0 (set keeps its sign).
              if (typeof k === 'boolean' || Object.is(k, -0)) continue;
              expect(map.store(k as string | number, value)).toBe(reference.set(k, value));
              break;
            case 'delete':
              expect(map.delete(k)).toBe(reference.delete(k));
              break;
            case 'get':
              expect(map.get(k)).toBe(reference.get(k));
              break;
            case 'has':
              expect(map.has(k)).toBe(reference.get(k) !== undefined);
              break;
            case 'lookup':
              expect(map.lookup(k)).toBe(reference.get(k));
              break;
          }
        }
        expect(map.size).toBe(reference.entries.length);
        expect(map.keys()).toEqual(reference.entries.map(([k]) => k));
        expect(map.values()).toEqual(reference.entries.map(([, v]) => v));
        expect([...map.pairs()]).toEqual(reference.entries);
      }),
      { seed: 20261126, numRuns: 400 },
    );
  });
});
