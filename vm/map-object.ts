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

/** Stands for one host object (one entity) in one map; it keeps the handle the entry was added with. */
class HostKeyToken {
  constructor(
    readonly identity: unknown,
    readonly key: HostObject,
  ) {}
}

export class ObjMap implements VmObject {
  readonly objectType = 'map';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  /** Set while print shows this map (a map inside itself shows `{...}`); see vm/display.ts. */
  displaying = false;
  /**
   * Stored key → value. A string, number or boolean key is stored as itself
   * (one hash lookup per access, no entry object); an entity key as its token.
   */
  private readonly entries = new Map<StoredKey, Value>();
  /** Host-object identity → its token, for maps that hold entity keys. */
  private hostTokens: Map<unknown, HostKeyToken> | null = null;
  /** The entry under 0 was added as -0 (a JS Map stores -0 as 0; `keys()` gives the key back as it was added). */
  private zeroWasNegative = false;

  get size(): number {
    return this.entries.size;
  }

  /**
   * The value under a string, number or boolean key as it is stored — the
   * instructions' fast path (\`m[k]\`, \`m.get(k)\`): undefined when absent and for
   * any other key (an entity's entry is under its token: ask get()). Never
   * nan's entry: every way in (setMapEntry, a map literal, a snapshot) refuses
   * nan as a key, so a value found is the answer for any key asked.
   */
  lookup(key: Value): Value | undefined {
    return this.entries.get(key as StoredKey);
  }

  /** Store under a string key, or a number key but -0 and nan (the fast path of \`m[k] = v\`). Returns true when the key is new. */
  store(key: string | number, value: Value): boolean {
    const entries = this.entries;
    const size = entries.size;
    entries.set(key, value);
    return entries.size !== size;
  }

  /** The entry's value, or undefined when the key is absent (or cannot be a key). */
  get(key: Value): Value | undefined {
    if (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') return this.entries.get(key);
    const token = this.tokenOf(key, false);
    return token === undefined ? undefined : this.entries.get(token);
  }

  has(key: Value): boolean {
    if (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') return this.entries.has(key);
    const token = this.tokenOf(key, false);
    return token !== undefined && this.entries.has(token);
  }

  /** Store an entry (a new key goes last; an existing one keeps its place). Returns true when the key is new. */
  set(key: Value, value: Value): boolean {
    const entries = this.entries;
    const size = entries.size;
    if (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') {
      entries.set(key, value);
      if (entries.size === size) return false;
      if (key === 0 && Object.is(key, -0)) this.zeroWasNegative = true;
      return true;
    }
    entries.set(this.tokenOf(key, true)!, value);
    return entries.size !== size;
  }

  /** Remove an entry; returns its value, or undefined when the key was absent. */
  delete(key: Value): Value | undefined {
    const stored = typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean' ? key : this.tokenOf(key, false);
    if (stored === undefined) return undefined;
    const value = this.entries.get(stored);
    if (value === undefined) return undefined;
    this.entries.delete(stored);
    if (stored === 0) this.zeroWasNegative = false;
    else if (stored instanceof HostKeyToken) this.hostTokens!.delete(stored.identity);
    return value;
  }

  /** Keys in insertion order. */
  keys(): Value[] {
    if (this.hostTokens === null && !this.zeroWasNegative) return Array.from(this.entries.keys() as MapIterator<Value>);
    const out: Value[] = [];
    for (const stored of this.entries.keys()) out.push(this.keyOf(stored));
    return out;
  }

  /** Values in key insertion order. */
  values(): Value[] {
    return Array.from(this.entries.values());
  }

  /** [key, value] pairs in insertion order. */
  *pairs(): IterableIterator<readonly [Value, Value]> {
    for (const [stored, value] of this.entries) yield [this.keyOf(stored), value];
  }

  /** The key as the spell added it. */
  private keyOf(stored: StoredKey): Value {
    if (stored instanceof HostKeyToken) return stored.key;
    return stored === 0 && this.zeroWasNegative ? -0 : stored;
  }

  /** The token of a host-object key (made when `create`), or undefined (also for a value that cannot be a key). */
  private tokenOf(key: Value, create: boolean): HostKeyToken | undefined {
    if (!isHostKey(key)) return undefined;
    const identity = hostIdentity(key);
    let token = this.hostTokens?.get(identity);
    if (token === undefined && create) {
      token = new HostKeyToken(identity, key);
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
