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

/**
 * Stands in `entries` for a value kept in the map's slots (ObjMap.slots): the
 * key's place in the order is in `entries`, its value in the array.
 */
const IN_SLOTS: unique symbol = Symbol('in slots');

/** The slots grow to cover a new integer key below this many keys per entry (twice the entries, and 8 more). */
const SLOTS_PER_ENTRY = 2;
const SLOTS_SPARE = 8;
/** Slots longer than this, fewer than one in SLOTS_SPARSE of them used, go (their entries back to the hash). */
const SLOTS_KEPT = 64;
const SLOTS_SPARSE = 8;

export class ObjMap implements VmObject {
  readonly objectType = 'map';
  /** The last measurement of retained memory that counted this object (vm/retained-heap.ts). */
  measureMark = 0;
  /** Set while print shows this map (a map inside itself shows `{...}`); see vm/display.ts. */
  displaying = false;
  /**
   * Every key in insertion order, as it is stored → its value. A string,
   * number or boolean key is stored as itself (one hash lookup per access, no
   * entry object); an entity key as its token. A key below `slots.length`
   * has its value in the slots and IN_SLOTS here.
   */
  private readonly entries = new Map<StoredKey, Value | typeof IN_SLOTS>();
  /**
   * The values of the integer keys 0 … slots.length - 1 (undefined: no such
   * entry), as Lua keeps an array part beside a table's hash part: reading,
   * testing or updating such a key is an array access, no hash lookup (only
   * adding or removing one touches `entries`, for the order). The slots grow
   * (by doubling) to cover a new key only while they stay dense — at most
   * twice the entries, and 8 more — so they never hold much more memory than
   * the entries they serve; the keys they come to cover move over then. When
   * removals leave them sparse (fewer than one in 8 used, past 64) they go,
   * their entries back to the hash: memory follows the entries kept, as a JS
   * Map's table shrinks when emptied. Growing and dropping each cost a pass
   * over the slots (never over all the entries), and a drop waits until half
   * their length has been removed since they grew, so no sequence of calls
   * makes each call pay such a pass: a spell's fuel still bounds its time.
   */
  private slots: (Value | undefined)[] = NO_SLOTS;
  /** How many of the slots hold a value. */
  private slotCount = 0;
  /** Slot entries removed since the slots last grew (a drop must be paid for by as many removals as half the slots). */
  private removedSinceGrowth = 0;
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
    // (k >>> 0) === k: an integer from 0 to 2^32 - 1 (-0 too: slot 0).
    if (typeof key === 'number' && (key >>> 0) === key && key < this.slots.length) return this.slots[key];
    return this.entries.get(key as StoredKey) as Value | undefined;
  }

  /** Store under a string key, or a number key but -0 and nan (the fast path of \`m[k] = v\`). Returns true when the key is new. */
  store(key: string | number, value: Value): boolean {
    if (typeof key === 'number' && (key >>> 0) === key) return this.storeIndex(key, value);
    return this.storeEntry(key, value);
  }

  /** The entry's value, or undefined when the key is absent (or cannot be a key). */
  get(key: Value): Value | undefined {
    if (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') return this.lookup(key);
    const token = this.tokenOf(key, false);
    return token === undefined ? undefined : (this.entries.get(token) as Value | undefined);
  }

  has(key: Value): boolean {
    if (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') return this.lookup(key) !== undefined;
    const token = this.tokenOf(key, false);
    return token !== undefined && this.entries.has(token);
  }

  /** Store an entry (a new key goes last; an existing one keeps its place). Returns true when the key is new. */
  set(key: Value, value: Value): boolean {
    if (typeof key === 'number' && (key >>> 0) === key) {
      if (!this.storeIndex(key, value)) return false;
      if (key === 0 && Object.is(key, -0)) this.zeroWasNegative = true;
      return true;
    }
    const stored = typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean' ? key : this.tokenOf(key, true)!;
    return this.storeEntry(stored, value);
  }

  /** Remove an entry; returns its value, or undefined when the key was absent. */
  delete(key: Value): Value | undefined {
    const stored = typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean' ? key : this.tokenOf(key, false);
    if (stored === undefined) return undefined;
    let value: Value | undefined;
    if (typeof stored === 'number' && (stored >>> 0) === stored && stored < this.slots.length) {
      value = this.slots[stored];
      if (value === undefined) return undefined;
      this.slots[stored] = undefined;
      // Sparse, and paid for: half the slots' length removed since they grew (a spell that adds and removes one
      // key by turns cannot make every call grow and drop them, each a pass over the slots).
      this.slotCount--;
      if (++this.removedSinceGrowth * 2 >= this.slots.length && this.slotCount * SLOTS_SPARSE < this.slots.length && this.slots.length > SLOTS_KEPT) {
        this.dropSlots();
      }
    } else {
      value = this.entries.get(stored) as Value | undefined;
      if (value === undefined) return undefined;
    }
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
    const out: Value[] = [];
    for (const [stored, value] of this.entries) out.push(value === IN_SLOTS ? this.slots[stored as number]! : value);
    return out;
  }

  /** [key, value] pairs in insertion order. */
  *pairs(): IterableIterator<readonly [Value, Value]> {
    for (const [stored, value] of this.entries) yield [this.keyOf(stored), value === IN_SLOTS ? this.slots[stored as number]! : value];
  }

  /** Store under an integer key from 0 to 2^32 - 1 (in the slots when they cover it or grow to). Returns true when the key is new. */
  private storeIndex(key: number, value: Value): boolean {
    if (key >= this.slots.length && !this.growSlots(key)) return this.storeEntry(key, value);
    const slots = this.slots;
    const old = slots[key];
    slots[key] = value;
    if (old !== undefined) return false;
    this.entries.set(key, IN_SLOTS);
    this.slotCount++;
    return true;
  }

  /** Store in the hash (a key the slots do not cover). Returns true when the key is new. */
  private storeEntry(stored: StoredKey, value: Value): boolean {
    const entries = this.entries;
    const size = entries.size;
    entries.set(stored, value);
    return entries.size !== size;
  }

  /** The slots' values back to the hash (their keys keep their places in the order), the slots gone. */
  private dropSlots(): void {
    const slots = this.slots;
    for (let k = 0; k < slots.length; k++) {
      const value = slots[k];
      if (value !== undefined) this.entries.set(k, value);
    }
    this.slots = NO_SLOTS;
    this.slotCount = 0;
  }

  /**
   * Grow the slots to cover `key` if they stay dense (at most SLOTS_PER_ENTRY
   * per entry the map will have, and SLOTS_SPARE more), moving the entries
   * of the keys they come to cover into them. False when they do not grow.
   */
  private growSlots(key: number): boolean {
    const limit = SLOTS_PER_ENTRY * (this.entries.size + 1) + SLOTS_SPARE;
    if (key >= limit) return false;
    const old = this.slots;
    let length = Math.max(SLOTS_SPARE, old.length);
    while (length <= key) length *= 2;
    length = Math.min(length, limit);
    const slots: (Value | undefined)[] = new Array(length);
    for (let k = 0; k < old.length; k++) slots[k] = old[k];
    // The keys from the old length up that are in the entries now go to the slots (in place in the order):
    // each looked up, so growing costs the slots' length, never the entries' count.
    const entries = this.entries;
    for (let k = old.length; k < length; k++) {
      const value = entries.get(k);
      if (value !== undefined && value !== IN_SLOTS) {
        slots[k] = value;
        entries.set(k, IN_SLOTS);
        this.slotCount++;
      }
    }
    this.slots = slots;
    this.removedSinceGrowth = 0;
    return true;
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

/** The slots of every map that has none yet: empty, so nothing is ever written to it (growSlots replaces it). */
const NO_SLOTS: (Value | undefined)[] = [];

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
