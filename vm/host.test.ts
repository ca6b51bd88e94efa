/**
 * `hostFunction()`, the typed form of a host function: it takes every field
 * a `HostFunctionSpec` has (a fixed `fuel` charge too), and types the
 * implementation's arguments from the parameter declarations.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { compile } from '../compiler/index.js';
import { hostFunction, type HostFunction } from './host.js';
import { VM } from './vm.js';

function castWith(host: HostFunction, fuel: number): { state: string; outOfFuel: boolean } {
  const { module } = compile('spell go() { for (var i = 0; i < 3; i += 1) heavy(i); }', { sourceName: 'go.spell', hosts: [host] });
  const fiber = new VM(module!, { hosts: [host] }).cast('go', [], { fuel });
  return { state: fiber.state, outOfFuel: /Out of fuel/.test(fiber.error?.message ?? '') };
}

describe('hostFunction()', () => {
  it('accepts a fixed fuel charge, and the VM charges it on every call', () => {
    const declare = (fuel?: number): HostFunction =>
      hostFunction({
        name: 'heavy',
        params: [{ name: 'n', type: 'number' }],
        returns: 'nil',
        doc: 'Work whose fixed cost is large.',
        ...(fuel === undefined ? {} : { fuel }),
        impl: (_ctx, n) => {
          expectTypeOf(n).toEqualTypeOf<number>();
          return null;
        },
      });
    const heavy = hostFunction({ name: 'heavy', params: [], returns: 'nil', doc: 'd', fuel: 500, impl: () => null });
    expect(heavy.fuel).toBe(500);
    // Three calls: 1,500 fuel with the charge, a few dozen without it.
    expect(castWith(declare(), 1000)).toEqual({ state: 'done', outOfFuel: false });
    expect(castWith(declare(500), 1000)).toEqual({ state: 'failed', outOfFuel: true });
    expect(castWith(declare(500), 2000)).toEqual({ state: 'done', outOfFuel: false });
  });
});
