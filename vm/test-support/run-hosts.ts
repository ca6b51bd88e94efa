/**
 * Host functions the fiber tests share: `pause(tag)` suspends the run (the
 * value it is resumed with is its result), and `reenter(n)` calls back into
 * the VM while a run is in progress, through `reentry.call`, which a test
 * sets and puts back (`resetReentry`) when it is done.
 */
import { CORE_HOST_FUNCTIONS } from '../builtins.js';
import type { HostFunction } from '../host.js';
import type { Value } from '../value.js';

export const pauseHost: HostFunction = {
  name: 'pause',
  params: [{ name: 'tag', type: 'number' }],
  returns: 'number',
  doc: 'Suspends the run; the value it is resumed with is the result.',
  impl: (ctx) => {
    ctx.suspend();
    return null;
  },
};

/** What `reenter(n)` does: set per test. */
export const reentry: { call: (n: number) => Value } = { call: () => null };

export function resetReentry(): void {
  reentry.call = () => null;
}

export const reenterHost: HostFunction = {
  name: 'reenter',
  params: [{ name: 'n', type: 'number' }],
  returns: 'number',
  doc: 'Calls back into the VM while a run is in progress, then returns.',
  impl: (_ctx, n) => reentry.call(n as number),
};

/** The core host functions with pause and reenter. */
export const RUN_HOSTS: readonly HostFunction[] = [...CORE_HOST_FUNCTIONS, pauseHost, reenterHost];
