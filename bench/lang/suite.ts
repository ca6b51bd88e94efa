/**
 * The benchmark programs. Each one exists three times under programs/ —
 * `<name>.spell`, `<name>.lua`, `<name>.js` — with the same algorithm, and
 * `<name>.expected` holds the lines all of them must print.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from './engine.js';
import { PROGRAMS_DIR } from './paths.js';

export interface Benchmark {
  readonly name: string;
  /** What it stresses, one line (shown in the report). */
  readonly stresses: string;
}

export const BENCHMARKS: readonly Benchmark[] = [
  { name: 'fib', stresses: 'recursive calls, small-int arithmetic (fib(30))' },
  { name: 'loop', stresses: 'tight arithmetic loop over locals' },
  { name: 'method_call', stresses: 'method dispatch, this, super calls (Wren)' },
  { name: 'zoo', stresses: 'getter methods reading fields (the book\'s zoo)' },
  { name: 'properties', stresses: 'field reads and writes' },
  { name: 'instantiation', stresses: 'allocating instances with init() (the book)' },
  { name: 'binary_trees', stresses: 'allocation, recursion, nil checks (the book)' },
  { name: 'string_equality', stresses: 'equal / unequal string comparison (the book)' },
  { name: 'closures', stresses: 'closure creation, upvalue reads and writes' },
  { name: 'maps', stresses: 'map reads with a default, has, stores, removes, for-in (Lua tables, JS Map)' },
];

export function programPath(name: string, language: Language): string {
  return join(PROGRAMS_DIR, `${name}.${language}`);
}

export function readProgram(name: string, language: Language): string {
  return readFileSync(programPath(name, language), 'utf8');
}

/** The checksum lines every engine must print for this benchmark. */
export function readExpected(name: string): string[] {
  return readFileSync(join(PROGRAMS_DIR, `${name}.expected`), 'utf8').trimEnd().split('\n');
}
