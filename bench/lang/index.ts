/**
 * The language suite: the classic interpreter benchmarks on Cantrip and its
 * peers in one process, plus compile throughput. Progress goes to stderr,
 * the markdown report to stdout, the numbers to bench/results/lang*.json.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_ORDER, LANGUAGE_OF, type Engine, type EngineName } from './engine.js';
import { createCantripEngine, loadCantrip, type CantripApi } from './engines/cantrip.js';
import { createNodeEngine, createQuickJsEngine } from './engines/js.js';
import { createFengariEngine, createWasmoonEngine } from './engines/lua.js';
import { measureCompileThroughput } from './compile-throughput.js';
import { DEFAULT_PLAN, measureRoundRobin, QUICK_PLAN, type Measurement, type RunPlan } from './measure.js';
import { buildResults, renderMarkdown, type EngineStatus, type LangResults } from './report.js';
import { BENCHMARKS, readExpected, readProgram } from './suite.js';
import { RESULTS_DIR } from './paths.js';

export interface LangOptions {
  /** Benchmark names (or 'compile') to run; null for all. */
  readonly only: readonly string[] | null;
  /** Engines to run; null for all. */
  readonly engines: readonly EngineName[] | null;
  /** One timed run, no warm-up. */
  readonly quick: boolean;
  /** Exactly this many timed runs (overrides the adaptive plan). */
  readonly runs: number | null;
}

export const DEFAULT_LANG_OPTIONS: LangOptions = { only: null, engines: null, quick: false, runs: null };

const COMPILE_LINES = 10_000;

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function planFor(options: LangOptions): RunPlan {
  const base = options.quick ? QUICK_PLAN : DEFAULT_PLAN;
  return options.runs === null ? base : { ...base, minRuns: options.runs, maxRuns: options.runs };
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function startEngine(name: EngineName, cantrip: CantripApi | null): Promise<Engine> {
  switch (name) {
    case 'cantrip':
      if (cantrip === null) throw new Error('Cantrip not loaded');
      return createCantripEngine(cantrip);
    case 'interpreter':
      if (cantrip === null) throw new Error('Cantrip not loaded');
      return createCantripEngine(cantrip, 'interpreter');
    case 'quickjs':
      return createQuickJsEngine();
    case 'fengari':
      return createFengariEngine();
    case 'wasmoon':
      return createWasmoonEngine();
    case 'node':
      return createNodeEngine();
  }
}

/** Starts every wanted engine once (startup is never timed); a failure just leaves that column empty. */
async function startEngines(
  wanted: readonly EngineName[],
): Promise<{ engines: Engine[]; statuses: EngineStatus[]; cantrip: CantripApi | null }> {
  const load = wanted.includes('cantrip') ? await loadCantrip() : null;
  const cantrip = load?.ok ? load.api : null;
  const engines: Engine[] = [];
  const statuses: EngineStatus[] = [];
  for (const name of wanted) {
    if (name === 'cantrip' && load !== null && !load.ok) {
      statuses.push({ name, available: false, reason: load.reason });
      continue;
    }
    try {
      engines.push(await startEngine(name, cantrip));
      statuses.push({ name, available: true, reason: null });
    } catch (error) {
      statuses.push({ name, available: false, reason: describe(error) });
    }
  }
  return { engines, statuses, cantrip };
}

function runBenchmarks(engines: readonly Engine[], names: readonly string[], plan: RunPlan): Measurement[] {
  const measurements: Measurement[] = [];
  for (const name of names) {
    const programs = engines.map((engine) => ({ engine, source: readProgram(name, LANGUAGE_OF[engine.name]) }));
    for (const m of measureRoundRobin(programs, name, readExpected(name), plan)) {
      const shown = m.medianMs === null ? `FAIL: ${m.error ?? ''}` : `${m.medianMs.toFixed(1)} ms`;
      log(`  ${name.padEnd(16)} ${m.engine.padEnd(8)} ${shown}`);
      measurements.push(m);
    }
  }
  return measurements;
}

function compileThroughput(cantrip: CantripApi | null, quick: boolean): LangResults['compile'] {
  if (cantrip === null) return { error: 'Cantrip compiler not available' };
  try {
    log(`  compile          ${COMPILE_LINES} generated lines`);
    return measureCompileThroughput(cantrip, COMPILE_LINES, quick ? 1 : 5);
  } catch (error) {
    return { error: describe(error) };
  }
}

function writeResults(results: LangResults): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, results.partial ? 'lang.partial.json' : 'lang.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

export async function run(options: LangOptions = DEFAULT_LANG_OPTIONS): Promise<LangResults> {
  const only = options.only;
  const benchmarks = BENCHMARKS.filter((b) => only === null || only.includes(b.name));
  const withCompile = only === null || only.includes('compile');
  const wanted = ENGINE_ORDER.filter((n) => options.engines === null || options.engines.includes(n));
  const plan = planFor(options);

  log('== language benchmarks');
  const { engines, statuses, cantrip } = await startEngines(benchmarks.length > 0 ? wanted : ['cantrip']);
  for (const s of statuses.filter((s) => !s.available)) log(`  (${s.name} not run: ${s.reason ?? ''})`);
  const measurements = runBenchmarks(engines, benchmarks.map((b) => b.name), plan);
  const compile = withCompile ? compileThroughput(cantrip, options.quick) : null;
  for (const engine of engines) engine.dispose();

  const partial = only !== null || options.engines !== null || options.quick || options.runs !== null;
  const results = buildResults(benchmarks, statuses, measurements, plan, partial, compile);
  const file = writeResults(results);
  process.stdout.write(`${renderMarkdown(results)}\n\n`);
  log(`  results written to ${file}`);
  return results;
}
