/**
 * `npm run bench`: the language suite (bench/lang) and, when present, the
 * other suites (bench/embedding, bench/spatial, bench/pool, bench/playground,
 * bench/snapshot, bench/reload, bench/server, bench/lsp, bench/dap, bench/clox — the last needs a clox build),
 * each exporting `run({ quick })`. One failing suite does not stop the others.
 *
 *   node dist/bench/run.js [<names>] [--only <names>] [--quick] [--runs N] [--engines <names>]
 *
 * --only (or bare names: `npm run bench -- embedding`) takes a comma-separated list of
 * suite names (lang, embedding, spatial, pool, playground, snapshot, reload, server, lsp, dap, clox), language benchmark names
 * (fib, loop, …) and/or 'compile'.
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ENGINE_ORDER, type EngineName } from './lang/engine.js';
import { run as runLang } from './lang/index.js';
import { BENCHMARKS } from './lang/suite.js';

interface SuiteModule {
  run(options?: { quick?: boolean; write?: boolean }): Promise<unknown>;
}

const OTHER_SUITES = ['embedding', 'spatial', 'pool', 'playground', 'snapshot', 'reload', 'server', 'lsp', 'dap', 'clox'] as const;
const SUITE_NAMES: readonly string[] = ['lang', ...OTHER_SUITES];
const USAGE =
  'usage: node dist/bench/run.js [<suite|benchmark|compile>[,…]] [--only <suite|benchmark|compile>[,…]] [--quick] [--runs N] [--engines <name>[,…]]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(64);
}

function list(value: string | undefined): string[] | null {
  return value === undefined ? null : value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function parseOptions() {
  let parsed;
  try {
    const args = parseArgs({
      allowPositionals: true,
      options: {
        only: { type: 'string' },
        quick: { type: 'boolean', default: false },
        runs: { type: 'string' },
        engines: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
    // Bare names are the same as --only (`npm run bench -- embedding`).
    const bare = args.positionals.join(',');
    parsed = { ...args.values, only: [args.values.only, bare].filter((s) => s !== undefined && s !== '').join(',') || undefined };
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const only = list(parsed.only);
  const known = new Set<string>([...SUITE_NAMES, 'compile', ...BENCHMARKS.map((b) => b.name)]);
  for (const name of only ?? []) if (!known.has(name)) fail(`unknown benchmark or suite '${name}'`);
  const engines = list(parsed.engines);
  for (const name of engines ?? []) {
    if (!(ENGINE_ORDER as readonly string[]).includes(name)) fail(`unknown engine '${name}'`);
  }
  const runs = parsed.runs === undefined ? null : Number(parsed.runs);
  if (runs !== null && !(Number.isInteger(runs) && runs > 0)) fail('--runs takes a positive integer');
  return { only, quick: parsed.quick, runs, engines: engines as EngineName[] | null };
}

async function runOtherSuite(name: string, options: { quick: boolean }): Promise<void> {
  const url = new URL(`./${name}/index.js`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) return;
  const suite = (await import(url.href)) as Partial<SuiteModule>;
  if (typeof suite.run !== 'function') {
    process.stderr.write(`bench/${name}/index.ts exports no run(); skipped\n`);
    return;
  }
  // `write`: full runs record their results files, as the language suite does.
  await suite.run({ quick: options.quick, write: !options.quick });
}

/** Runs one suite; a failure is reported and remembered, and the next suite still runs. */
async function guarded(name: string, body: () => Promise<unknown>): Promise<boolean> {
  try {
    await body();
    return true;
  } catch (error) {
    process.stderr.write(`bench ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return false;
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  const only = options.only;
  const langNames = only?.filter((n) => !SUITE_NAMES.includes(n)) ?? [];
  let ok = true;
  if (only === null || only.includes('lang') || langNames.length > 0) {
    const langOnly = only === null || only.includes('lang') ? null : langNames;
    ok = (await guarded('lang', () => runLang({ ...options, only: langOnly }))) && ok;
  }
  for (const suite of OTHER_SUITES) {
    if (only === null || only.includes(suite)) ok = (await guarded(suite, () => runOtherSuite(suite, options))) && ok;
  }
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
