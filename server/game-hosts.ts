/**
 * A game's own host functions on the server: loaded from an ES module whose
 * default export is the list `new World({ hosts })` takes (`--hosts MODULE`;
 * every worker process imports it), or only declared by an API file (`--api
 * FILE`: calls are checked, and a call fails at run time with a message that
 * says the server has no implementation).
 */

import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { HostError } from '../vm/errors.js';
import type { HostFunction, HostFunctionSpec } from '../vm/host.js';
import { WorldError } from '../runtime/errors.js';

/** The module cannot be read (exit 66), as opposed to a module that loads but exports no host list (a WorldError, exit 65). */
export class HostsModuleMissing extends Error {}

/**
 * `import(url)` for a module of the game's. Compiled here rather than written
 * as `import()`: the CLI runs from a CommonJS bundle (bin/build-bundle.ts)
 * whose `import()`s become `require`, which cannot load an ES module on Node 20.
 */
let importer: ((url: string) => Promise<unknown>) | null = null;
/** The script's text, spelled so that the bundle's check for a stray `import(` in code (bin/build-bundle.ts) passes over it: this one runs compiled afresh, never from a code cache. */
const IMPORT_SCRIPT = ['(url) => ', 'import', '(url)'].join('');
function importModule(url: string): Promise<unknown> {
  importer ??= withoutLoaderWarning(
    () => new vm.Script(IMPORT_SCRIPT, { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }).runInThisContext() as (url: string) => Promise<unknown>,
  );
  const load = importer;
  return withoutLoaderWarning(() => load(url));
}

/** Node 20 calls the loader constant experimental (a line on stderr in front of every serve); it is what the bundle needs, not news to the user. */
function withoutLoaderWarning<T>(make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning instanceof Error ? warning.message : warning).includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}

/** Import `path` and return its default export, checked to be a list of host functions (their declarations are checked by the World). */
export async function loadHostsModule(path: string): Promise<HostFunction[]> {
  const absolute = resolve(path);
  if (!existsSync(absolute)) throw new HostsModuleMissing(`--hosts ${path}: no such file.`);
  let loaded: { default?: unknown };
  try {
    loaded = (await importModule(pathToFileURL(absolute).href)) as { default?: unknown };
  } catch (error) {
    throw new WorldError(`--hosts ${path} does not load: ${firstLine(error)}`);
  }
  const hosts = loaded.default;
  if (!Array.isArray(hosts)) {
    throw new WorldError(`--hosts ${path} must have a default export that is the list of host functions new World({ hosts }) takes (export default [ { name, params, returns, doc, impl } … ]), not ${describe(hosts)}.`);
  }
  for (const [i, h] of hosts.entries()) {
    if (typeof h !== 'object' || h === null) throw new WorldError(`--hosts ${path}: entry ${i + 1} of the default export is ${describe(h)}, not a host function.`);
    if (typeof (h as { impl?: unknown }).impl !== 'function') {
      throw new WorldError(`--hosts ${path}: host function '${String((h as { name?: unknown }).name)}' has no implementation ('impl').`);
    }
  }
  return hosts as HostFunction[];
}

/**
 * Host functions declared by an API file only: spells that call them are
 * served (they check), and each call fails in the cast that makes it with a
 * message saying why (the cast's `cast-error` event, with its line).
 */
export function declaredOnlyServerHosts(specs: readonly HostFunctionSpec[], apiFile: string): HostFunction[] {
  return specs.map((spec) => ({
    ...spec,
    impl: () => {
      throw new HostError(`${spec.name}() is declared in ${apiFile} but this server has no implementation of it: serve with --hosts MODULE (the game's host functions).`);
    },
  }));
}

/** The module's functions, then the API file's functions the module does not implement (declared only). */
export function gameHosts(fromModule: readonly HostFunction[], declared: readonly HostFunctionSpec[], apiFile: string | undefined): HostFunction[] {
  const implemented = new Set(fromModule.map((h) => h.name));
  const missing = declared.filter((d) => !implemented.has(d.name));
  return [...fromModule, ...(apiFile === undefined ? [] : declaredOnlyServerHosts(missing, apiFile))];
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!;
}

function describe(value: unknown): string {
  if (value === undefined) return 'no default export';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
