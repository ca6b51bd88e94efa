/**
 * Everything observable of running a module, on one tier: what the tiers'
 * differential tests compare (vm/compiled/tiers.test.ts, tests/fuzz/
 * tier-differential.test.ts). The same program must give the same transcript
 * on the interpreter, the compiled tier and `auto`.
 */

import { expect } from 'vitest';
import type { Budgets } from '../../vm/budgets.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import type { Fiber } from '../../vm/fiber.js';
import type { HostFunction } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { VM, type Tier } from '../../vm/vm.js';

/** A run's end: its state, result, error (message, trace with lines, which budget), fuel left, heap and output charged. */
export function describeFiber(fiber: Fiber): string {
  return JSON.stringify({
    state: fiber.state,
    result: fiber.state === 'done' ? String(fiber.result) : null,
    error: fiber.error?.format() ?? null,
    limit: fiber.error?.limit ?? null,
    fuel: fiber.fuel,
    heap: fiber.heapUsed,
    output: fiber.outputUsed,
  });
}

/**
 * The core builtins with a clock that stands still: a program may print `str(clock())`, whose text
 * (and so its heap and output charges) would differ from one run to the next, whichever tier ran it.
 */
export const STILL_CLOCK_HOSTS: readonly HostFunction[] = CORE_HOST_FUNCTIONS.map((host) => (host.name === 'clock' ? { ...host, impl: () => 1.25 } : host));

/** Globals a transcript calls when the script defined them (the grammar's programs and the random modules name theirs so). */
const CALLED = ['f', 'g', 'h', 'C', 'D', 'main', 'g0', 'g1', 'g2'];

/** Everything observable of running a module's script, its spells and some of its functions on `tier`. */
export function transcript(module: Module, tier: Tier, budgets: Partial<Budgets>, hosts: readonly HostFunction[] = STILL_CLOCK_HOSTS): { lines: string[]; failures: readonly string[] } {
  const lines: string[] = [];
  const vm = new VM(module, { ...budgets, hosts, print: (text) => lines.push(`print ${text}`), tier });
  lines.push(`script ${describeFiber(vm.runScript())}`);
  for (const spell of vm.spellNames().slice(0, 4)) {
    for (let i = 0; i < 3; i++) lines.push(`cast ${spell} ${describeFiber(vm.cast(spell, [i, 'two']))}`);
  }
  for (const name of CALLED) {
    if (vm.getGlobal(name) !== undefined) lines.push(`call ${name} ${describeFiber(vm.call(name, [3]))}`);
  }
  return { lines, failures: vm.compileFailures };
}

/**
 * The module gives the interpreter's transcript on `auto` and on the compiled tier, and every function compiles.
 * `auto` first: after a compiled run, the process holds that code, and `auto` takes it at the first call
 * (compileRemembered) instead of compiling hot functions and loops at their thresholds.
 */
export function sameOnEveryTier(module: Module, budgets: Partial<Budgets>, hosts?: readonly HostFunction[]): void {
  const interpreted = transcript(module, 'interpreter', budgets, hosts);
  for (const tier of ['auto', 'compiled'] as const) {
    const compiled = transcript(module, tier, budgets, hosts);
    expect(compiled.failures).toEqual([]);
    expect(compiled.lines, `tier ${tier}`).toEqual(interpreted.lines);
  }
}
