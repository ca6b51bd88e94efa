/**
 * Run untrusted code the way an embedder would, and list every way it broke
 * the sandbox's promise: a JS exception thrown out of the VM or the world, an
 * error that is not a Cantrip error, a Cantrip error whose message is a
 * leaked JS error, a fiber in an impossible state, a polluted prototype.
 * An empty list means the run was clean (finishing or failing cleanly).
 */

import type { Budgets } from '../../vm/budgets.js';
import { SpellRuntimeError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import type { HostFunction } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { VM } from '../../vm/vm.js';
import { BreedError, WorldError } from '../../runtime/errors.js';
import { World } from '../../runtime/world/world.js';
import type { BreedData } from '../../runtime/entities/breeds.js';
import { LEAKED_JS_ERROR, prototypesClean } from './fuzz-settings.js';

/** Small budgets: every run ends quickly, and every limit gets hit now and then. */
export const SMALL_BUDGETS: Readonly<Budgets> = Object.freeze({
  fuel: 20_000,
  maxFrames: 40,
  maxStack: 2_000,
  maxHeap: 20_000,
  maxFibers: 8,
  maxWait: 5,
  maxOutput: 20_000,
});

function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  return String(error);
}

/** Problems with one finished (or suspended) fiber. */
export function fiberProblems(fiber: Fiber, what: string): string[] {
  const problems: string[] = [];
  if (!['done', 'failed', 'suspended'].includes(fiber.state)) problems.push(`${what}: fiber left in state '${fiber.state}'`);
  if (fiber.state === 'failed') {
    const error = fiber.error;
    if (!(error instanceof SpellRuntimeError)) problems.push(`${what}: failed without a SpellRuntimeError`);
    else {
      if (LEAKED_JS_ERROR.test(error.message)) problems.push(`${what}: leaked JS error: ${error.message}`);
      if (!Number.isInteger(error.line) || error.line < 0) problems.push(`${what}: bad line ${error.line}`);
      if (typeof error.format() !== 'string') problems.push(`${what}: format() is not text`);
    }
  }
  return problems;
}

/** Run the script, then cast every spell and call a few globals, in a bare VM. */
export function runModuleSafely(module: Module, hosts: readonly HostFunction[], budgets: Partial<Budgets> = SMALL_BUDGETS): string[] {
  const problems: string[] = [];
  try {
    const vm = new VM(module, { ...SMALL_BUDGETS, ...budgets, hosts, print: () => {} });
    problems.push(...fiberProblems(vm.runScript(), 'script'));
    for (const spell of vm.spellNames().slice(0, 4)) {
      problems.push(...fiberProblems(vm.cast(spell, [1, 'two']), `cast ${spell}`));
    }
    for (const name of ['f', 'g', 'h', 'C', 'D']) {
      if (vm.getGlobal(name) !== undefined) problems.push(...fiberProblems(vm.call(name, [3]), `call ${name}`));
    }
    // Resume what suspended (a host function may suspend in a bare VM too), with a value of each kind.
    for (const spell of vm.spellNames().slice(0, 2)) {
      const fiber = vm.cast(spell, [null, null]);
      for (let i = 0; i < 3 && fiber.state === 'suspended'; i++) vm.resume(fiber, i === 0 ? 1 : 'x');
      problems.push(...fiberProblems(fiber, `resumed ${spell}`));
    }
  } catch (error) {
    problems.push(`threw out of the VM: ${describeThrown(error)}`);
  }
  if (!prototypesClean()) problems.push('Object.prototype or Array.prototype was modified');
  return problems;
}

export const FUZZ_BREEDS: BreedData = {
  breeds: [
    { name: 'Creature', abstract: true, health: 10, speed: 1, attributes: { armor: 1, hp: 3 } },
    { name: 'Troll', parent: 'Creature', health: 25, interest: 3, tags: ['monster'] },
    { name: 'Wizard', parent: 'Creature', health: 40, interest: 5, attributes: { wisdom: 12 } },
  ],
};

export interface WorldRunOptions {
  readonly budgets?: Partial<Budgets>;
  readonly ticks?: number;
  readonly capacity?: number;
}

/** Load spells into a small world, spawn a few entities, cast every spell both ways, tick. */
export function runInWorldSafely(source: string, options: WorldRunOptions = {}): string[] {
  const problems: string[] = [];
  try {
    const world = new World({
      width: 20,
      height: 20,
      capacity: options.capacity ?? 16,
      policy: 'error',
      cellSize: 4,
      seed: 3,
      budgets: { ...SMALL_BUDGETS, ...options.budgets },
    });
    world.on((event) => {
      if (event.type === 'cast-error' && LEAKED_JS_ERROR.test(event.message)) problems.push(`cast-error leaked: ${event.message}`);
    });
    try {
      world.loadSpells(source, 'fuzz.spell');
    } catch (error) {
      // A top-level script that fails, or a spell defined twice, is refused cleanly.
      if (error instanceof WorldError && !LEAKED_JS_ERROR.test(error.message)) return problems;
      throw error;
    }
    world.loadBreeds(FUZZ_BREEDS);
    const a = world.spawn('Troll', 5, 5);
    const b = world.spawn('Wizard', 6, 5);
    world.spawn('Troll', 15, 15);
    for (const spell of world.spellNames().slice(0, 4)) {
      for (const [caster, target] of [[a, b], [b, a]] as const) {
        if (!world.isAlive(caster) || !world.isAlive(target)) continue;
        const result = world.cast(spell, caster, target);
        if (result.state === 'failed') {
          const error = result.error;
          if (!(error instanceof SpellRuntimeError)) problems.push(`cast ${spell}: failed without a SpellRuntimeError`);
          else if (LEAKED_JS_ERROR.test(error.message)) problems.push(`cast ${spell}: leaked JS error: ${error.message}`);
        }
      }
    }
    for (let i = 0; i < (options.ticks ?? 8); i++) world.tick(world.options.step);
    world.flush();
    for (const e of world.entities()) {
      if (!Number.isFinite(e.x) || !Number.isFinite(e.y)) problems.push(`entity #${e.id} at a non-finite position`);
    }
  } catch (error) {
    if (!(error instanceof BreedError)) problems.push(`threw out of the world: ${describeThrown(error)}`);
  }
  if (!prototypesClean()) problems.push('Object.prototype or Array.prototype was modified');
  return problems;
}
