/**
 * The text of a template string: `` `The ${breed} hits for ${dmg}!` `` is
 * compiled to its parts (literal text and expressions, in order) and one
 * TEMPLATE instruction, which joins them here, converting each part exactly
 * as `str()` does.
 */

import { displayBounded } from './display.js';
import type { Value } from './value.js';

/**
 * The joined text of `count` values from `stack[first]`, or null once it
 * would exceed `maxChars` (the fuel left: a part can be a list holding
 * itself many times, whose text would be far longer than its heap cost).
 */
export function templateText(stack: readonly Value[], first: number, count: number, maxChars: number): string | null {
  let text = '';
  let left = maxChars;
  for (let i = first; i < first + count; i++) {
    const value = stack[i]!;
    const part = typeof value === 'string' ? value : displayBounded(value, left);
    if (part === null || part.length > left) return null;
    left -= part.length;
    text += part;
  }
  return text;
}
