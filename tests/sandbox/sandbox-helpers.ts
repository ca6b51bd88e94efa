/**
 * Small helpers shared by the sandbox tests: compile-or-fail, a VM with a
 * print sink, and a suspending host function for fiber tests.
 */

import { compile } from '../../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import type { HostFunction } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { VM, type VMOptions } from '../../vm/vm.js';

/** `pause()` suspends the calling fiber until the embedder resumes it (a bare-VM `wait`). */
export const PAUSE: HostFunction = {
  name: 'pause',
  params: [],
  returns: 'nil',
  doc: 'Suspend this fiber until the host resumes it.',
  impl: (ctx) => {
    ctx.suspend();
    return null;
  },
};

export const TEST_HOSTS: readonly HostFunction[] = [...CORE_HOST_FUNCTIONS, PAUSE];

export function compileOrThrow(source: string, hosts: readonly HostFunction[] = TEST_HOSTS): Module {
  const { module, diagnostics } = compile(source, { sourceName: 'test.spell', hosts });
  if (module === null) throw new Error(`does not compile: ${diagnostics.map((d) => `[line ${d.line}] ${d.message}`).join('; ')}`);
  return module;
}

export interface TestVm {
  readonly vm: VM;
  readonly printed: string[];
}

export function makeVm(source: string, options: VMOptions = {}): TestVm {
  const printed: string[] = [];
  const vm = new VM(compileOrThrow(source, options.hosts ?? TEST_HOSTS), {
    hosts: TEST_HOSTS,
    ...options,
    print: (text) => printed.push(text),
  });
  return { vm, printed };
}
