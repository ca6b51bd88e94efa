/** Issue 17: a spell or global name that is not a string is a clean failed run, never a JavaScript TypeError. */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { SpellRuntimeError } from './errors.js';
import { describeNonString } from './name-argument.js';
import { VM } from './vm.js';

const NOT_STRINGS: readonly [unknown, string][] = [
  [42, 'a number (42)'],
  [null, 'null'],
  [undefined, 'undefined'],
  [true, 'a boolean (true)'],
  [{ name: 'zap' }, 'an object'],
  [['zap'], 'an array'],
  [10n, 'a bigint'],
  [Symbol('zap'), 'a symbol'],
  [() => 'zap', 'a function'],
];

function vm(): VM {
  const { module } = compile('fun helper() { return 1; }\nspell zap(a) { return 2; }');
  return new VM(module!, { print: () => {} });
}

describe('names that are not strings', () => {
  it.each(NOT_STRINGS)('vm.cast(%s) fails with a SpellRuntimeError naming what it got', (name, what) => {
    const fiber = vm().cast(name as string, []);
    expect(fiber.state).toBe('failed');
    expect(fiber.error).toBeInstanceOf(SpellRuntimeError);
    expect(fiber.error!.message).toBe(`A spell name must be a string, not ${what}.`);
    expect(fiber.spell).toBeNull();
  });

  it.each(NOT_STRINGS)('vm.call(%s) fails with a SpellRuntimeError', (name, what) => {
    const fiber = vm().call(name as string, []);
    expect(fiber.state).toBe('failed');
    expect(fiber.error!.message).toBe(`A global name must be a string, not ${what}.`);
  });

  it.each(NOT_STRINGS)('vm.castFast, vm.callFast and a cast loop of %s report a failure', (name, what) => {
    const machine = vm();
    // Before any fast cast (the VM's remembered spell is null), and after a good one.
    for (let round = 0; round < 2; round++) {
      const cast = machine.castFast(name as string, []);
      expect(cast.state).toBe('failed');
      expect(cast.error!.message).toBe(`A spell name must be a string, not ${what}.`);
      expect(machine.castFast('zap', [1]).state).toBe('done');
    }
    expect(machine.callFast(name as string, []).error!.message).toBe(`A global name must be a string, not ${what}.`);
    const loop = machine.castLoop(name as string);
    expect(loop.run([]).error!.message).toBe(`A spell name must be a string, not ${what}.`);
    loop.close();
    // The VM goes on.
    expect(machine.cast('zap', [1]).result).toBe(2);
    expect(machine.call('helper', []).result).toBe(1);
    expect(machine.liveFiberCount).toBe(0);
  });

  it('describes every kind of JavaScript value', () => {
    for (const [value, what] of NOT_STRINGS) expect(describeNonString(value)).toBe(what);
  });
});
