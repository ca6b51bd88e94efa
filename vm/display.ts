/**
 * How `print` (and `str()`) shows a value, following clox: integers without
 * ".0", `nil`, `<fn name>`, `<script>`, `<native fn>`, the class name,
 * `Name instance`; lists (an extension) as `[1, 2]` and maps as
 * `{fire: 3, ice: 2}` (keys and values shown as print shows them, in
 * insertion order).
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
  const budget = { left: maxChars };
  try {
    return displayObject(value, null, budget);
  } catch (error) {
    if (error === TOO_LONG) return null;
    throw error;
  }
}

const TOO_LONG = Symbol('too long');

interface Budget {
  left: number;
}

function spend(text: string, budget: Budget): string {
  budget.left -= text.length;
  if (budget.left < 0) throw TOO_LONG;
  return text;
}

function displayFunctionName(fn: ObjFunction): string {
  return fn.name === '' ? '<script>' : `<fn ${fn.name}>`;
}

type Container = ObjList | ObjMap;

function displayObject(value: Exclude<Value, number | string | boolean | null>, seen: Set<Container> | null, budget: Budget): string {
  if (value instanceof ObjList) return displayList(value, seen, budget);
  if (value instanceof ObjMap) return displayMap(value, seen, budget);
  return spend(displayAtom(value), budget);
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
function displayList(list: ObjList, seen: Set<Container> | null, budget: Budget): string {
  const visiting = seen ?? new Set<Container>();
  // `visiting` holds the lists on the path from the root, so its size is the depth.
  if (visiting.has(list) || visiting.size >= MAX_DISPLAY_DEPTH) return spend('[...]', budget);
  visiting.add(list);
  spend('[]', budget);
  const parts: string[] = [];
  for (const item of list.items) {
    if (parts.length > 0) spend(', ', budget);
    parts.push(displayElement(item, visiting, budget));
  }
  visiting.delete(list);
  return `[${parts.join(', ')}]`;
}

function displayElement(item: Value, visiting: Set<Container>, budget: Budget): string {
  return typeof item === 'object' && item !== null
    ? displayObject(item, visiting, budget)
    : spend(typeof item === 'string' ? item : displayValue(item), budget);
}

/** Maps show `{key: value, …}`; a map inside itself shows `{...}` there (as lists do). */
function displayMap(map: ObjMap, seen: Set<Container> | null, budget: Budget): string {
  const visiting = seen ?? new Set<Container>();
  if (visiting.has(map) || visiting.size >= MAX_DISPLAY_DEPTH) return spend('{...}', budget);
  visiting.add(map);
  spend('{}', budget);
  const parts: string[] = [];
  for (const [key, value] of map.pairs()) {
    if (parts.length > 0) spend(', ', budget);
    const shownKey = displayElement(key, visiting, budget);
    spend(': ', budget);
    parts.push(`${shownKey}: ${displayElement(value, visiting, budget)}`);
  }
  visiting.delete(map);
  return `{${parts.join(', ')}}`;
}
