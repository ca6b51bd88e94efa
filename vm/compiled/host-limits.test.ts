/**
 * A limit of the host engine reached in compiled code (V8's JavaScript stack)
 * ends a run with the error the interpreter gives at that point, never with
 * another budget's: compiled frames nest on the JavaScript stack, so how deep
 * they go is bounded by what each frame costs there (compiledDepthLimit),
 * and past it the calls run on the interpreter, whose frames are the fiber's.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { World } from '../../runtime/world/world.js';
import type { WorldEvent } from '../../runtime/events/events.js';
import type { BreedData } from '../../runtime/entities/breeds.js';
import { VM, type Tier } from '../vm.js';
import { describeFailure } from '../interpreter/fault.js';
import { compiledDepthLimit, COMPILED_DEPTH_LIMIT, COMPILED_STACK_SLOTS } from './statuses.js';

/** A recursive function whose every frame builds a 300-element list literal (300 values held in JS locals). */
function bigFrames(elements: number): string {
  const list = Array.from({ length: elements }, (_, i) => String(i % 10)).join(', ');
  return `
fun f(n) {
  var l = [${list}];
  return f(n + 1) + l[0];
}
`;
}

function runScript(source: string, tier: Tier): { output: string[]; error: string | null; limit: string | null; fuel: number } {
  const { module, diagnostics } = compile(source);
  if (module === null) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const output: string[] = [];
  const vm = new VM(module, { tier, print: (text) => output.push(text) });
  const fiber = vm.runScript();
  expect(vm.compileFailures).toEqual([]);
  return { output, error: fiber.error?.format() ?? null, limit: fiber.error?.limit ?? null, fuel: fiber.fuel };
}

describe('the JavaScript stack in compiled code', () => {
  it('a recursion of large frames stops with "Stack overflow." on every tier, as the interpreter does (a VM)', () => {
    const source = `${bigFrames(300)}print f(0);`;
    const interpreted = runScript(source, 'interpreter');
    expect(interpreted.error).toMatch(/^Stack overflow\.\n\[line 4\] in f\(\)/);
    expect(interpreted.limit).toBe('call depth');
    for (const tier of ['compiled', 'auto'] as const) expect(runScript(source, tier)).toEqual(interpreted);
  });

  it('the same in a World: the cast-error is the call depth, on every tier', () => {
    const errors = (tier: Tier) => {
      const world = new World({ width: 20, height: 20, seed: 1, tier });
      world.loadSpells(`${bigFrames(300)}spell deep(self, dt) { print f(0); }`, 'deep.spell');
      world.loadBreeds({ breeds: [{ name: 'Mage', health: 5, spells: { tick: 'deep' } }] } as BreedData);
      const events: WorldEvent[] = [];
      world.on((event) => events.push(event));
      world.spawn('Mage', 1, 1);
      for (let i = 0; i < 3; i++) world.step();
      return events.filter((event) => event.type === 'cast-error').map((event) => JSON.stringify(event));
    };
    const interpreted = errors('interpreter');
    expect(interpreted).toHaveLength(3);
    expect(interpreted[0]).toContain('Stack overflow.');
    expect(errors('compiled')).toEqual(interpreted);
    expect(errors('auto')).toEqual(interpreted);
  });

  it('frames of every size, mutually recursive, reach the interpreter\'s depth on every tier', () => {
    for (const elements of [1, 40, 120, 250, 600]) {
      const source = `${bigFrames(elements)}
fun g(n) { var l = [1]; return h(n + 1) + l[0]; }
fun h(n) { var l = [${Array.from({ length: elements }, () => '2').join(', ')}]; return g(n + 1) + l[0]; }
print f(0);
print g(0);`;
      const interpreted = runScript(source, 'interpreter');
      expect(interpreted.error).toMatch(/^Stack overflow\./);
      expect(runScript(source, 'compiled')).toEqual(interpreted);
    }
  });

  it('the depth compiled code may reach falls with the size of its frames', () => {
    expect(compiledDepthLimit(20)).toBe(COMPILED_DEPTH_LIMIT);
    expect(compiledDepthLimit(COMPILED_STACK_SLOTS / 10)).toBe(10);
    expect(compiledDepthLimit(COMPILED_STACK_SLOTS * 4)).toBe(1);
    const { module } = compile(`${bigFrames(300)}fun small(n) { return n + 1; }`);
    const vm = new VM(module!, { tier: 'compiled' });
    const byName = new Map(vm.runtimeFunctions.map((fn) => [fn.name, fn]));
    expect(byName.get('small')!.compiledDepth).toBe(COMPILED_DEPTH_LIMIT);
    expect(byName.get('f')!.compiledDepth).toBeLessThan(40);
    expect(byName.get('f')!.compiledDepth).toBeGreaterThan(0);
  });

  it('a stack overflow of the JavaScript engine that still escapes is a host limit, never a budget', () => {
    let overflow: unknown;
    const recurse = (n: number): number => n + recurse(n + 1);
    try {
      recurse(0);
    } catch (error) {
      overflow = error;
    }
    expect(overflow).toBeInstanceOf(RangeError);
    const { module } = compile('print 1;');
    const fiber = new VM(module!).runScript();
    const described = describeFailure(overflow, fiber);
    expect(described.message).toMatch(/^Host limit: /);
    expect(described.message).not.toMatch(/memory/i);
    expect(described.limit).toBeNull();
  });
});
