/**
 * The size of a world snapshot, tracked while it is built: World.snapshot()
 * refuses a world whose JSON would pass `maxSnapshotChars` with a WorldError,
 * as soon as the running total passes it — not after JSON.stringify has
 * tried (and thrown a RangeError, or taken the process's memory).
 *
 * Each piece of the snapshot is measured once, as it is added, by the length
 * JSON.stringify would give it (strings with their escapes, numbers as
 * printed), stopping at the limit: the measuring costs at most the limit.
 */

import { groupDigits } from '../../vm/bounded-text.js';
import { WorldError } from '../errors.js';

export class SnapshotSize {
  private total = 0;

  constructor(readonly limit: number) {}

  /** Characters counted so far. */
  get chars(): number {
    return this.total;
  }

  /** Count one piece of the snapshot (a plain JSON-able value) and hand it back. */
  add<T>(value: T): T {
    this.measure(value);
    return value;
  }

  private count(chars: number): void {
    this.total += chars;
    if (this.total > this.limit) {
      throw new WorldError(
        `The world is too large to snapshot: its JSON would pass ${groupDigits(this.limit)} characters (the maxSnapshotChars option).`,
      );
    }
  }

  private measure(value: unknown): void {
    if (value === null || value === undefined) return this.count(4);
    switch (typeof value) {
      case 'string':
        return this.countString(value);
      case 'number':
        return this.count(numberLength(value));
      case 'boolean':
        return this.count(value ? 4 : 5);
      case 'object':
        break;
      default:
        return this.count(4);
    }
    if (ArrayBuffer.isView(value)) {
      const view = value as unknown as ArrayLike<number>;
      this.count(2 + view.length);
      for (let i = 0; i < view.length; i++) this.count(numberLength(view[i]!));
      return;
    }
    if (Array.isArray(value)) {
      this.count(2 + value.length);
      for (const item of value) this.measure(item);
      return;
    }
    for (const [key, item] of Object.entries(value as object)) {
      if (item === undefined) continue;
      this.countString(key);
      this.count(2); // the colon and the comma
      this.measure(item);
    }
    this.count(2);
  }

  /** The characters of a JSON string literal: quotes, and escapes for quote, backslash, control characters and surrogates (counted at their longest). */
  private countString(text: string): void {
    // Counted in chunks, so a string far past the limit stops at the limit.
    const chunk = 65_536;
    this.count(2);
    for (let start = 0; start < text.length; start += chunk) {
      const end = Math.min(text.length, start + chunk);
      let chars = 0;
      for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) chars += 1;
        else if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) chars += 2;
        else chars += 6;
      }
      this.count(chars);
    }
  }
}

/** Length of a number as JSON prints it (non-finite numbers become null). */
function numberLength(n: number): number {
  if (!Number.isFinite(n)) return 4;
  if (Number.isInteger(n) && Math.abs(n) < 1e15) {
    let digits = 1;
    for (let a = Math.abs(n); a >= 10; a = Math.floor(a / 10)) digits++;
    return digits + (n < 0 ? 1 : 0);
  }
  return String(n).length;
}
