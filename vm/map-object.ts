/**
 * Maps: `{"fire": 3, "ice": 2}`. Keys are strings, numbers, booleans or
 * entities (host objects); entries keep insertion order, so `for (k in m)`,
 * `keys()` and `print` are deterministic (snapshots and replays rely on it).
 *
 * Entries live in a JS `Map`, never on a plain object, so `__proto__`,
 * `constructor` or `toString` are ordinary keys that can never reach
 * JavaScript's prototype machinery. A string key and a number key never
 * collide ("1" and 1 are different keys, as `==` says).
 *
 * Two handles to the same entity must find the same entry (`==` on
 * entities is `equals`, not identity), so a host-object key is replaced by a
 * per-map token found through the object's `mapKey()` (or the object itself
 * when the host gives none).
 */

import type { HostObject, Value, VmObject } from './value.js';

/** The JS key an entry is stored under. */
type StoredKey = string | number | boolean | HostKeyToken;

/** Stands for one host object (one entity) in one map. */
class HostKeyToken {
  constructor(readonly identity: unknown) {}
}

export class ObjMap implements VmObject {
  readonly objectType = 'map';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  /** Set while print shows this map (a map inside itself shows `{...}`); see vm/display.ts. */
  displaying = false;
  /** Stored key → [the key as the spell gave it, the value]. */
  private readonly entries = new Map<StoredKey, [Value, Value]>();
  /** Host-object identity → its token, for maps that hold entity keys. */
  private hostTokens: Map<unknown, HostKeyToken> | null = null;

  get size(): number {
    return this.entries.size;
  }

  /** The entry's value, or undefined when the key is absent (or cannot be a key). */
  get(key: Value): Value | undefined {
    const stored = this.find(key);
    return stored === undefined ? undefined : this.entries.get(stored)?.[1];
  }

  has(key: Value): boolean {
    const stored = this.find(key);
    return stored !== undefined && this.entries.has(stored);
  }

  /** Store an entry (a new key goes last; an existing one keeps its place). Returns true when the key is new. */
  set(key: Value, value: Value): boolean {
    const stored = this.storedKey(key, true)!;
    const entry = this.entries.get(stored);
    if (entry !== undefined) {
      entry[1] = value;
      return false;
    }
    this.entries.set(stored, [key, value]);
    return true;
  }

  /** Remove an entry; returns its value, or undefined when the key was absent. */
  delete(key: Value): Value | undefined {
    const stored = this.find(key);
    if (stored === undefined) return undefined;
    const entry = this.entries.get(stored);
    if (entry === undefined) return undefined;
    this.entries.delete(stored);
    if (stored instanceof HostKeyToken) this.hostTokens!.delete(stored.identity);
    return entry[1];
  }

  /** Keys in insertion order. */
  keys(): Value[] {
    const out: Value[] = [];
    for (const entry of this.entries.values()) out.push(entry[0]);
    return out;
  }

  /** Values in key insertion order. */
  values(): Value[] {
    const out: Value[] = [];
    for (const entry of this.entries.values()) out.push(entry[1]);
    return out;
  }

  /** [key, value] pairs in insertion order (live arrays: do not modify). */
  pairs(): IterableIterator<readonly [Value, Value]> {
    return this.entries.values();
  }

  private find(key: Value): StoredKey | undefined {
    return this.storedKey(key, false);
  }

  private storedKey(key: Value, create: boolean): StoredKey | undefined {
    if (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') return key;
    if (!isHostKey(key)) return undefined;
    const identity = hostIdentity(key);
    let token = this.hostTokens?.get(identity);
    if (token === undefined && create) {
      token = new HostKeyToken(identity);
      (this.hostTokens ??= new Map()).set(identity, token);
    }
    return token;
  }
}

function isHostKey(key: Value): key is HostObject {
  return typeof key === 'object' && key !== null && key.objectType === 'host';
}

/** Equal for two handles that `equals` each other (see HostObject.mapKey). */
function hostIdentity(key: HostObject): unknown {
  if (typeof key.mapKey !== 'function') return key;
  try {
    return key.mapKey();
  } catch {
    return key;
  }
}

/**
 * Why a value cannot be a map key, or null when it can. NaN is refused: it
 * is not `==` to itself, so an entry under it could never be read back.
 */
export function mapKeyProblem(key: Value): string | null {
  if (typeof key === 'string' || typeof key === 'boolean') return null;
  if (typeof key === 'number') return key === key ? null : 'A map key cannot be nan.';
  if (isHostKey(key)) return null;
  return 'Map keys must be strings, numbers, booleans or entities.';
}
