import { describe, expect, it } from 'vitest';
import { ObjMap } from './map-object.js';
import type { HostObject } from './value.js';

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
