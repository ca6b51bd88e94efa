/**
 * Cantrip itself: compile() then a fresh VM per run with unlimited fuel, as
 * the CLI runs a program. Loaded lazily so the harness still runs (with the
 * Cantrip column empty) while the compiler or VM is missing or broken.
 */

import type { Engine } from '../engine.js';

/** The slice of the public API (team brief contract) the benchmark relies on. */
export interface CantripApi {
  compile(
    source: string,
    options?: { sourceName?: string },
  ): { module: unknown; diagnostics: readonly { severity: string; message: string; line: number }[] };
  VM: new (
    module: never,
    options: { fuel: number; print: (text: string) => void },
  ) => { runScript(): { state: string; error: { message: string } | null } };
}

export type CantripLoad = { ok: true; api: CantripApi } | { ok: false; reason: string };

/** Imports the compiled compiler and VM (dist/compiler, dist/vm) next to this file's dist/bench tree. */
export async function loadCantrip(): Promise<CantripLoad> {
  try {
    const compilerUrl = new URL('../../../compiler/index.js', import.meta.url).href;
    const vmUrl = new URL('../../../vm/vm.js', import.meta.url).href;
    const compiler = (await import(compilerUrl)) as Partial<CantripApi>;
    const vm = (await import(vmUrl)) as Partial<CantripApi>;
    if (typeof compiler.compile !== 'function' || typeof vm.VM !== 'function') {
      return { ok: false, reason: 'compiler/index.ts or vm/vm.ts does not export compile / VM yet' };
    }
    return { ok: true, api: { compile: compiler.compile, VM: vm.VM } };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

/** Compiles a program and throws the first error diagnostic, clox-formatted. */
export function compileOrThrow(api: CantripApi, source: string, sourceName: string): unknown {
  const result = api.compile(source, { sourceName });
  const firstError = result.diagnostics.find((d) => d.severity === 'error');
  if (result.module === null || firstError !== undefined) {
    throw new Error(`[line ${firstError?.line ?? 0}] ${firstError?.message ?? 'compile failed'}`);
  }
  return result.module;
}

export function createCantripEngine(api: CantripApi): Engine {
  return {
    name: 'cantrip',
    language: 'spell',
    run(source) {
      const lines: string[] = [];
      const module = compileOrThrow(api, source, 'benchmark.spell');
      const vm = new api.VM(module as never, { fuel: Infinity, print: (text) => lines.push(text) });
      const fiber = vm.runScript();
      if (fiber.state === 'failed') throw new Error(fiber.error?.message ?? 'runtime error');
      return lines;
    },
    collect() {},
    dispose() {},
  };
}
