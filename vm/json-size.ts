/**
 * How big untrusted data would be as JSON, counted before anything reads it
 * further — a bound on the work of reading it. Data that came from a file is
 * a tree no bigger than the file; data handed over as objects (a structured
 * clone, a message from a worker) may share sub-objects, so a few kilobytes
 * can stand for a tree of billions of values (a list of a thousand copies of
 * a list of a thousand copies …), or hold a cycle. Both are refused here,
 * after at most `maxChars` steps.
 *
 * The count is from below: one per value, plus the length of every string
 * and object key. JSON.stringify of the same data is never shorter, so data
 * a snapshot wrote within maxChars characters always passes.
 */

import { childPath } from './json-schema-error.js';

interface Frame {
  readonly node: object;
  readonly keys: readonly string[] | null;
  readonly length: number;
  next: number;
}

/** Null when `data` fits in `maxChars` characters of JSON and holds no cycle; otherwise what is wrong, at which JSON path. */
export function jsonSizeProblem(data: unknown, maxChars: number, root = '$'): string | null {
  let count = 0;
  /** The containers being walked, outermost first; each one's `next - 1` is the child being visited. */
  const frames: Frame[] = [];
  const onPath = new Set<object>();
  const here = (): string => {
    let path = root;
    for (const f of frames) path = childPath(path, f.keys === null ? f.next - 1 : f.keys[f.next - 1]!);
    return path;
  };
  const visit = (value: unknown): string | null => {
    count += typeof value === 'string' ? value.length + 1 : 1;
    if (value !== null && typeof value === 'object') {
      if (onPath.has(value)) return `${here()} holds itself (a cycle): not data a snapshot can have.`;
      const keys = Array.isArray(value) ? null : Object.keys(value);
      if (keys !== null) for (const k of keys) count += k.length;
      if (count <= maxChars) {
        onPath.add(value);
        frames.push({ node: value, keys, length: keys === null ? (value as unknown[]).length : keys.length, next: 0 });
      }
    }
    return count > maxChars ? `${here()}: the data is larger than ${maxChars} characters of JSON allow.` : null;
  };
  let problem = visit(data);
  while (problem === null && frames.length > 0) {
    const top = frames[frames.length - 1]!;
    if (top.next === top.length) {
      frames.pop();
      onPath.delete(top.node);
      continue;
    }
    const key = top.keys === null ? top.next : top.keys[top.next]!;
    top.next++;
    problem = visit((top.node as Record<string | number, unknown>)[key]);
  }
  return problem;
}
