/**
 * `npm run bench -- --only embedding`: what a game programmer reads before
 * choosing an engine to embed. Two benchmarks, every engine in one process:
 *
 *   1. host calls into the engine: `add(a, b)` and `fields(o)` called from
 *      the host (host-calls.ts);
 *   2. a world step at 1k / 10k / 100k entities, each running the same small
 *      behaviour that calls back into the host (world-tick.ts).
 *
 * Times are per call / per step, in the process's CPU time (user + system:
 * load from other processes is not counted); ratios compare engines measured in the same
 * run (the machine may be loaded: read the ratios, not the absolute figures).
 * Results go to bench/results/embedding.json.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { RESULTS_DIR } from '../lang/paths.js';
import { cpuMs, fmt, formatTable, timePerRun } from '../spatial/table.js';
import { callContenders, expectedAdd, expectedFields, type CallContender } from './host-calls.js';
import { PLAIN_JS_WORLD, TICK_MAKERS, type TickContender } from './world-tick.js';
import { waitingCastsSteps } from './interleaved-steps.js';
import { median } from '../lang/measure.js';

export interface CallRow {
  readonly engine: string;
  readonly how: string;
  readonly addNs: number;
  readonly addCalls: number;
  readonly fieldsNs: number;
  readonly fieldsCalls: number;
}

export interface TickRow {
  readonly engine: string;
  readonly entities: number;
  readonly msPerStep: number;
  readonly overPlainJs: number | null;
}

export interface EmbeddingResults {
  readonly machine: string;
  readonly node: string;
  readonly hostCalls: readonly CallRow[];
  readonly worldTick: readonly TickRow[];
  /** Issue 34's world at 10,000 entities: a cast waiting on each (null when 10k is not among the sizes). */
  readonly waitingCasts: WaitingCastsRow | null;
  readonly missing: readonly { engine: string; reason: string }[];
  readonly targets: readonly { readonly target: string; readonly met: boolean; readonly detail: string }[];
}

export interface WaitingCastsRow {
  readonly entities: number;
  readonly withMsPerStep: number;
  readonly withoutMsPerStep: number;
  readonly ratio: number;
}

export interface RunOptions {
  quick?: boolean;
  write?: boolean;
  sizes?: readonly number[];
}

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const progress = (line: string): void => {
  process.stderr.write(`  ${line}\n`);
};

/** Calls per timed run: `target` unless the contender is so slow that would take more than ~3 s. */
function callsFor(measure: (n: number) => number, target: number): number {
  const probe = Math.max(1000, Math.floor(target / 20));
  const start = performance.now();
  measure(probe);
  const nsPerCall = ((performance.now() - start) * 1e6) / probe;
  const affordable = Math.floor(3e9 / Math.max(nsPerCall, 1e-3));
  return Math.max(Math.floor(target / 20), Math.min(target, affordable));
}

function timeCalls(run: (n: number) => number, n: number, expected: number, what: string): number {
  const start = cpuMs();
  const sum = run(n);
  const ns = ((cpuMs() - start) * 1e6) / n;
  if (Math.abs(sum - expected) > 1e-6 * Math.abs(expected)) throw new Error(`${what}: sum ${sum}, expected ${expected}`);
  return ns;
}

async function measureHostCalls(quick: boolean): Promise<{ rows: CallRow[]; missing: { engine: string; reason: string }[] }> {
  const target = quick ? 100_000 : 1_000_000;
  const trials = quick ? 1 : 3;
  const { contenders, missing } = await callContenders();
  const plan = contenders.map((c) => {
    // Warm-up (JIT, caches; a long one, so V8's concurrent compiler has finished with the
    // interpreter loop even on a loaded machine) and the number of calls a timed run makes.
    c.add(Math.floor(target / 2));
    c.fields(Math.floor(target / 10));
    return { c, addCalls: callsFor((n) => c.add(n), target), fieldsCalls: callsFor((n) => c.fields(n), target), add: [] as number[], fields: [] as number[] };
  });
  // Round robin: every contender once per trial, so load from elsewhere spreads over all of them.
  for (let t = 0; t < trials; t++) {
    for (const p of plan) {
      p.add.push(timeCalls((n) => p.c.add(n), p.addCalls, expectedAdd(p.addCalls), `${p.c.engine} add`));
      p.fields.push(timeCalls((n) => p.c.fields(n), p.fieldsCalls, expectedFields(p.fieldsCalls), `${p.c.engine} fields`));
    }
    progress(`host calls: trial ${t + 1}/${trials}`);
  }
  for (const c of contenders) c.dispose();
  const rows = plan.map((p) => ({
    engine: p.c.engine,
    how: p.c.how,
    addNs: median(p.add),
    addCalls: p.addCalls,
    fieldsNs: median(p.fields),
    fieldsCalls: p.fieldsCalls,
  }));
  return { rows, missing };
}

/**
 * Contenders that compute the same world must agree on it: compare after a few
 * steps, within each family (the "same loop" contenders; the two Worlds).
 * Returns the engines compared.
 */
export async function checkTickAgreement(entities = 500, steps = 5): Promise<string[]> {
  const sums: { engine: string; family: string; sum: number }[] = [];
  for (const [engine, make] of TICK_MAKERS) {
    let contender: TickContender;
    try {
      contender = await make(entities);
    } catch {
      continue; // reported as missing by the timed run
    }
    for (let i = 0; i < steps; i++) contender.step();
    const sum = contender.checksum();
    contender.dispose();
    if (sum !== null) sums.push({ engine, family: contender.family ?? 'host loop', sum });
  }
  for (const s of sums) {
    const first = sums.find((f) => f.family === s.family)!;
    if (Math.abs(s.sum - first.sum) > 1e-6 * Math.abs(first.sum)) {
      throw new Error(`world tick: ${s.engine} ends with checksum ${s.sum}, ${first.engine} with ${first.sum}`);
    }
  }
  return sums.map((s) => s.engine);
}

/**
 * Cantrip World.step over plain JS through the World API, by entity count (issue 20's target: ≤ 1.5× at 10k),
 * and what the scripting costs per entity (the difference of the two steps over the entities).
 */
export function worldOverPlainWorld(ticks: readonly TickRow[]): { entities: number; ratio: number; nsPerEntity: number }[] {
  const out: { entities: number; ratio: number; nsPerEntity: number }[] = [];
  for (const r of ticks) {
    if (r.engine !== 'Cantrip World.step') continue;
    const plain = ticks.find((p) => p.engine === PLAIN_JS_WORLD && p.entities === r.entities);
    if (plain) out.push({ entities: r.entities, ratio: r.msPerStep / plain.msPerStep, nsPerEntity: ((r.msPerStep - plain.msPerStep) * 1e6) / r.entities });
  }
  return out;
}

async function measureWorldTick(
  sizes: readonly number[],
  quick: boolean,
  missing: { engine: string; reason: string }[],
): Promise<TickRow[]> {
  await checkTickAgreement();
  const rows: TickRow[] = [];
  const rounds = quick ? 1 : 2;
  for (const n of sizes) {
    const best = new Map<string, number>();
    for (let round = 0; round < rounds; round++) {
      for (const [engine, make] of TICK_MAKERS) {
        let contender: TickContender;
        try {
          contender = await make(n);
        } catch (error) {
          if (round === 0 && n === sizes[0]) missing.push({ engine, reason: error instanceof Error ? error.message : String(error) });
          continue;
        }
        // Warm up to steady state (a game steps for minutes; V8 takes a few hundred steps to settle): at least 3 steps, up to 500 or 2 s.
        const warmStart = performance.now();
        for (let i = 0; i < 500 && (i < 3 || performance.now() - warmStart < (quick ? 100 : 2000)); i++) contender.step();
        const ms = timePerRun(() => contender.step(), { warmup: 0, minMs: quick ? 200 : 1000, maxRuns: 2000, clock: cpuMs });
        contender.dispose();
        best.set(engine, Math.min(best.get(engine) ?? Infinity, ms));
      }
    }
    const plain = best.get('plain JS') ?? null;
    for (const [engine, ms] of best) rows.push({ engine, entities: n, msPerStep: ms, overPlainJs: plain === null ? null : ms / plain });
    progress(`world tick: ${n} entities`);
  }
  return rows;
}

/** The world with a cast waiting on each entity against it without them (bench/embedding/interleaved-steps.ts). */
function measureWaitingCasts(entities: number, quick: boolean): WaitingCastsRow {
  const { withMs, withoutMs } = waitingCastsSteps(entities, quick ? 3 : 9);
  progress(`world tick: ${entities} entities with a cast waiting on each`);
  return { entities, withMsPerStep: withMs, withoutMsPerStep: withoutMs, ratio: withMs / withoutMs };
}

function callTable(rows: readonly CallRow[]): string {
  const fengari = rows.find((r) => r.engine === 'fengari');
  const plain = rows.find((r) => r.engine === 'plain JS');
  const ratio = (a: number, b: number | undefined): string => (b === undefined ? '—' : `${fmt(a / b)}×`);
  return formatTable(
    ['engine', 'add ns/call', '÷ fengari', '÷ plain JS', 'fields ns/call', '÷ fengari', '÷ plain JS'],
    rows.map((r) => [
      r.engine,
      fmt(r.addNs),
      ratio(r.addNs, fengari?.addNs),
      ratio(r.addNs, plain?.addNs),
      fmt(r.fieldsNs),
      ratio(r.fieldsNs, fengari?.fieldsNs),
      ratio(r.fieldsNs, plain?.fieldsNs),
    ]),
  );
}

function tickTable(rows: readonly TickRow[], sizes: readonly number[]): string {
  const engines = [...new Set(rows.map((r) => r.engine))];
  const cell = (engine: string, n: number): TickRow | undefined => rows.find((r) => r.engine === engine && r.entities === n);
  const headers = ['engine', ...sizes.flatMap((n) => [`${n / 1000}k ms/step`, '÷ plain JS'])];
  return formatTable(
    headers,
    engines.map((engine) => [
      engine,
      ...sizes.flatMap((n) => {
        const row = cell(engine, n);
        return [fmt(row?.msPerStep ?? null), row?.overPlainJs == null ? '—' : `${fmt(row.overPlainJs)}×`];
      }),
    ]),
  );
}

function checkTargets(calls: readonly CallRow[], ticks: readonly TickRow[], sizes: readonly number[]): EmbeddingResults['targets'] {
  const targets: { target: string; met: boolean; detail: string }[] = [];
  const fast = calls.find((r) => r.engine === 'Cantrip vm.callFast');
  const byName = (name: string): CallRow | undefined => calls.find((r) => r.engine === name);
  if (fast) {
    const fengari = byName('fengari');
    if (fengari) {
      targets.push({ target: 'add: Cantrip ≤ 1.0× fengari per call', met: fast.addNs <= fengari.addNs, detail: `${fmt(fast.addNs / fengari.addNs)}×` });
    }
    const others = ['QuickJS', 'wasmoon (raw C API)', 'wasmoon (wrapper)'].map(byName).filter((r): r is CallRow => r !== undefined);
    const behind = others.filter((r) => r.addNs <= fast.addNs).map((r) => r.engine);
    targets.push({ target: 'add: Cantrip ahead of QuickJS and wasmoon', met: behind.length === 0, detail: behind.length === 0 ? 'yes' : `not of ${behind.join(', ')}` });
  }
  const world10k = ticks.find((r) => r.engine === 'Cantrip World.step' && r.entities === 10_000);
  if (world10k) {
    targets.push({ target: '10,000 entities, drift tick spell, no interest: ≤ 4 ms per step', met: world10k.msPerStep <= 4, detail: `${fmt(world10k.msPerStep)} ms` });
  }
  const overWorld = worldOverPlainWorld(ticks).find((r) => r.entities === 10_000);
  if (overWorld) {
    targets.push({
      target: '10,000 entities: Cantrip World.step ≤ 1.5× the same behaviour in plain JS through the World API',
      met: overWorld.ratio <= 1.5,
      detail: `${fmt(overWorld.ratio)}×`,
    });
  }
  const peers = ['fengari', 'wasmoon (raw C API)', 'QuickJS'];
  const losses: string[] = [];
  for (const n of sizes) {
    const cantrip = ticks.find((r) => r.engine === 'Cantrip World.step' && r.entities === n);
    for (const peer of peers) {
      const row = ticks.find((r) => r.engine === peer && r.entities === n);
      if (cantrip && row && row.msPerStep <= cantrip.msPerStep) losses.push(`${peer} at ${n}`);
    }
  }
  targets.push({ target: 'world step: Cantrip World ahead of every engine but plain JS at every size', met: losses.length === 0, detail: losses.length === 0 ? 'yes' : `behind ${losses.join(', ')}` });
  return targets;
}

export async function run(options: RunOptions = {}): Promise<EmbeddingResults> {
  const quick = options.quick ?? false;
  const sizes = options.sizes ?? (quick ? [1000, 10_000] : [1000, 10_000, 100_000]);
  process.stderr.write('== embedding benchmarks\n');
  const { rows: calls, missing } = await measureHostCalls(quick);
  const ticks = await measureWorldTick(sizes, quick, missing);
  const waiting = sizes.includes(10_000) ? measureWaitingCasts(10_000, quick) : null;
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} CPUs)`;
  const targets = [...checkTargets(calls, ticks, sizes)];
  if (waiting !== null) {
    targets.push({
      target: '10,000 entities with a cast waiting on each (one source with the tick spell): a step ≤ 1.3× the same world without them',
      met: waiting.ratio <= 1.3,
      detail: `${fmt(waiting.ratio)}×`,
    });
  }

  log('\n## Embedding: host calls into the engine\n');
  log(`Node ${process.version}, ${machine}. Median of ${quick ? 1 : 3} timed runs of up to ${quick ? '100,000' : '1,000,000'} calls each, after a warm-up; every run's sum of results is checked.`);
  log('Times here and below are the process\'s CPU time (user + system), so load from other processes on a shared machine is not counted.\n');
  log(callTable(calls));
  log('');
  for (const r of calls) log(`- ${r.engine}: ${r.how}${r.addCalls < (quick ? 100_000 : 1_000_000) ? ` (${r.addCalls} add calls per run)` : ''}`);
  log('\n## Embedding: a world step where every entity runs `drift` (calls back into the host)\n');
  log(tickTable(ticks, sizes));
  log('');
  log('Cantrip World.step is a whole World step (tick casts, movement, grid index, AOI with no interest range, events);');
  log(`${PLAIN_JS_WORLD} is the same World stepping the same entities, drift a JS function the game calls per entity`);
  log('(world.random(), world.setVelocity) before world.step() (the two Worlds\' positions checked equal);');
  log('the other rows are the same host loop: call the behaviour per entity, then move every entity (positions checked equal).');
  const overWorld = worldOverPlainWorld(ticks);
  log(`\nCantrip World.step ÷ ${PLAIN_JS_WORLD}: ${overWorld.map((r) => `${fmt(r.ratio)}× at ${r.entities / 1000}k`).join(', ')}`);
  log(`(the tick spell costs ${overWorld.map((r) => `${fmt(r.nsPerEntity)} ns per entity at ${r.entities / 1000}k`).join(', ')} more than the same behaviour in JS)`);
  if (waiting !== null) {
    log(
      `\nWith a cast waiting on each of the ${waiting.entities / 1000}k entities (\`linger\`, in the tick spell's source, waking every 20 steps to wait again): ` +
        `${fmt(waiting.withMsPerStep)} ms per step against ${fmt(waiting.withoutMsPerStep)} without, ${fmt(waiting.ratio)}× (whole 20-step cycles, the two worlds' rounds interleaved).`,
    );
  }
  log('\nTargets:');
  for (const t of targets) log(`- ${t.met ? 'met' : 'NOT met'} — ${t.target}: ${t.detail}`);
  for (const m of missing) log(`- (${m.engine} not run: ${m.reason})`);

  const results: EmbeddingResults = { machine, node: process.version, hostCalls: calls, worldTick: ticks, waitingCasts: waiting, missing, targets };
  if (options.write ?? !quick) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, 'embedding.json');
    writeFileSync(file, JSON.stringify({ generatedAt: new Date().toISOString(), ...results }, null, 2) + '\n');
    process.stderr.write(`  results written to ${file}\n`);
  }
  return results;
}
