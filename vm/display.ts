/**
 * How `print` (and `str()`) shows a value, following clox: integers without
 * ".0", `nil`, `<fn name>`, `<script>`, `<native fn>`, the class name,
 * `Name instance`; lists (an extension) as `[1, 2]`.
 */

import { ObjMap } from './map-object.js';
import {
  ObjBoundMethod,
  ObjClass,
  ObjClosure,
  ObjFunction,
  ObjHostFunction,
  ObjInstance,
  ObjList,
  isHostObject,
} from './objects.js';
import type { Value } from './value.js';

export function displayNumber(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  if (n !== n) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  return String(n);
}

export function displayValue(value: Value): string {
  return displayBounded(value, Infinity) ?? '';
}

/**
 * `displayValue`, but gives up (returns null) once the text would exceed
 * `maxChars`: a list holding the same big list many times would otherwise
 * print exponentially long text for a tiny heap cost.
 */
export function displayBounded(value: Value, maxChars: number): string | null {
  if (typeof value === 'string') return value.length <= maxChars ? value : null;
  if (typeof value === 'number') return displayNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'nil';
  if (!(value instanceof ObjList) && !(value instanceof ObjMap)) {
    const text = displayAtom(value);
    return text.length <= maxChars ? text : null;
  }
  // One flat list of pieces, joined once: the work is the text's length, whatever the nesting
  // (joining per level copied the text once per level).
  const out: Output = { pieces: [], left: maxChars };
  try {
    displayElement(value, 0, out);
  } catch (error) {
    if (error === TOO_LONG) return null;
    throw error;
  }
  return out.pieces.join('');
}

const TOO_LONG = Symbol('too long');

interface Output {
  readonly pieces: string[];
  left: number;
}

function emit(text: string, out: Output): void {
  out.left -= text.length;
  if (out.left < 0) throw TOO_LONG;
  out.pieces.push(text);
}

function displayFunctionName(fn: ObjFunction): string {
  return fn.name === '' ? '<script>' : `<fn ${fn.name}>`;
}

function displayAtom(value: Exclude<Value, number | string | boolean | null>): string {
  if (value instanceof ObjClosure) return displayFunctionName(value.fn);
  if (value instanceof ObjFunction) return displayFunctionName(value);
  if (value instanceof ObjBoundMethod) {
    return value.method instanceof ObjClosure ? displayFunctionName(value.method.fn) : '<native fn>';
  }
  if (value instanceof ObjHostFunction) return '<native fn>';
  if (value instanceof ObjClass) return value.name;
  if (value instanceof ObjInstance) return `${value.klass.name} instance`;
  if (isHostObject(value)) return value.display();
  return `<${value.objectType}>`;
}

/**
 * Lists nested deeper than this show `[...]` below it: display recurses per
 * level, and a spell can nest lists 100,000 deep for little fuel, which would
 * overflow the JS stack (found by tests/fuzz).
 */
export const MAX_DISPLAY_DEPTH = 256;

/** Lists show their elements as print does; a list that contains itself shows `[...]` there. */
function displayList(list: ObjList, depth: number, out: Output): void {
  // A mark on the list, not a Set of the path: showing a wide nested list is the text's length in work.
  if (list.displaying || depth >= MAX_DISPLAY_DEPTH) return emit('[...]', out);
  list.displaying = true;
  try {
    emit('[', out);
    const items = list.items;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) emit(', ', out);
      displayElement(items[i]!, depth + 1, out);
    }
    emit(']', out);
  } finally {
    list.displaying = false;
  }
}

function displayElement(item: Value, depth: number, out: Output): void {
  if (item instanceof ObjList) displayList(item, depth, out);
  else if (item instanceof ObjMap) displayMap(item, depth, out);
  else if (typeof item === 'object' && item !== null) emit(displayAtom(item), out);
  else emit(typeof item === 'string' ? item : displayValue(item), out);
}

/** Maps show `{key: value, …}` in insertion order; a map inside itself shows `{...}` there (as lists do). */
function displayMap(map: ObjMap, depth: number, out: Output): void {
  if (map.displaying || depth >= MAX_DISPLAY_DEPTH) return emit('{...}', out);
  map.displaying = true;
  try {
    emit('{', out);
    let first = true;
    for (const [key, value] of map.pairs()) {
      if (!first) emit(', ', out);
      first = false;
      displayElement(key, depth + 1, out);
      emit(': ', out);
      displayElement(value, depth + 1, out);
    }
    emit('}', out);
  } finally {
    map.displaying = false;
  }
}
