/**
 * Cantrip itself: compile() then a fresh VM per run with unlimited fuel, as
 * the CLI runs a program. Imported lazily so the harness still runs (with the
 * Cantrip column empty) if the compiler or VM fails to load.
 */

import type { Module } from '../../../vm/module.js';
import type { Engine } from '../engine.js';

export interface CantripApi {
  readonly compile: typeof import('../../../compiler/index.js').compile;
  readonly VM: typeof import('../../../vm/vm.js').VM;
}

export type CantripLoad = { ok: true; api: CantripApi } | { ok: false; reason: string };

export async function loadCantrip(): Promise<CantripLoad> {
  try {
    const { compile } = await import('../../../compiler/index.js');
    const { VM } = await import('../../../vm/vm.js');
    return { ok: true, api: { compile, VM } };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

/** Compiles a program and throws the first error diagnostic, clox-formatted. */
export function compileOrThrow(api: CantripApi, source: string, sourceName: string): Module {
  const result = api.compile(source, { sourceName });
  const firstError = result.diagnostics.find((d) => d.severity === 'error');
  if (result.module === null || firstError !== undefined) {
    throw new Error(`[line ${firstError?.line ?? 0}] ${firstError?.message ?? 'compile failed'}`);
  }
  return result.module;
}

/** Cantrip as a program runs under `cantrip run` (tier auto), or on its interpreter alone. */
export function createCantripEngine(api: CantripApi, tier: 'auto' | 'interpreter' = 'auto'): Engine {
  return {
    name: tier === 'auto' ? 'cantrip' : 'interpreter',
    language: 'spell',
    run(source) {
      const lines: string[] = [];
      const module = compileOrThrow(api, source, 'benchmark.spell');
      const vm = new api.VM(module, { fuel: Infinity, print: (text) => lines.push(text), tier });
      const fiber = vm.runScript();
      if (fiber.state === 'failed') throw new Error(fiber.error?.message ?? 'runtime error');
      return lines;
    },
    collect() {},
    dispose() {},
  };
}
