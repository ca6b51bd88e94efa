/**
 * The language suite's results: one plain object (written as JSON) and its
 * markdown rendering (printed to stdout, pasted into the README).
 */

import { cpus } from 'node:os';
import { ENGINE_ORDER, type EngineName } from './engine.js';
import type { CompileThroughput } from './compile-throughput.js';
import type { Measurement, RunPlan } from './measure.js';
import { evaluateTargets, geomeanMs, geomeanRatio, PEERS, ratio, toTable, type Peer, type TargetResult } from './stats.js';
import type { Benchmark } from './suite.js';

export interface EngineStatus {
  readonly name: EngineName;
  readonly available: boolean;
  readonly reason: string | null;
}

export interface LangResults {
  readonly generatedAt: string;
  readonly environment: { node: string; platform: string; arch: string; cpu: string; cpus: number };
  readonly plan: RunPlan;
  /** True when --only/--quick limited the run. */
  readonly partial: boolean;
  readonly engines: readonly EngineStatus[];
  readonly benchmarks: readonly {
    name: string;
    stresses: string;
    medianMs: Partial<Record<EngineName, number | null>>;
    minMs: Partial<Record<EngineName, number | null>>;
    samplesMs: Partial<Record<EngineName, readonly number[]>>;
    errors: Partial<Record<EngineName, string>>;
    cantripOver: Partial<Record<Peer, number | null>>;
  }[];
  readonly geomeanMs: Partial<Record<EngineName, number | null>>;
  readonly geomeanCantripOver: Partial<Record<Peer, number | null>>;
  readonly targets: readonly TargetResult[];
  readonly compile: CompileThroughput | { error: string } | null;
}

export function buildResults(
  benchmarks: readonly Benchmark[],
  engines: readonly EngineStatus[],
  measurements: readonly Measurement[],
  plan: RunPlan,
  partial: boolean,
  compile: LangResults['compile'],
): LangResults {
  const table = toTable(measurements);
  const ran = engines.filter((e) => e.available).map((e) => e.name);
  const pick = <T>(names: readonly EngineName[], f: (n: EngineName) => T): Partial<Record<EngineName, T>> =>
    Object.fromEntries(names.map((n) => [n, f(n)]));
  const peerPick = <T>(f: (p: Peer) => T): Partial<Record<Peer, T>> =>
    Object.fromEntries(PEERS.filter((p) => ran.includes(p)).map((p) => [p, f(p)]));
  return {
    generatedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpu: cpus()[0]?.model ?? 'unknown',
      cpus: cpus().length,
    },
    plan,
    partial,
    engines,
    benchmarks: benchmarks.map((b) => {
      const mine = measurements.filter((m) => m.benchmark === b.name);
      return {
        name: b.name,
        stresses: b.stresses,
        medianMs: pick(ran, (n) => table.get(b.name)?.get(n) ?? null),
        minMs: Object.fromEntries(mine.map((m) => [m.engine, m.minMs])),
        samplesMs: Object.fromEntries(mine.map((m) => [m.engine, m.samplesMs])),
        errors: Object.fromEntries(mine.filter((m) => m.error !== null).map((m) => [m.engine, m.error])),
        cantripOver: peerPick((p) => ratio(table, b.name, p)),
      };
    }),
    geomeanMs: pick(ran, (n) => geomeanMs(table, n)),
    geomeanCantripOver: peerPick((p) => geomeanRatio(table, p)),
    targets: evaluateTargets(table),
    compile,
  };
}

const ms = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : v.toFixed(v < 10 ? 2 : 0));
const times = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${v.toFixed(2)}×`);

function engineColumns(results: LangResults): EngineName[] {
  return ENGINE_ORDER.filter((n) => results.engines.some((e) => e.name === n && e.available));
}

function timesTable(results: LangResults): string[] {
  const engines = engineColumns(results);
  const peers = PEERS.filter((p) => engines.includes(p) && engines.includes('cantrip'));
  const header = ['benchmark', ...engines.map((e) => `${e} ms`), ...peers.map((p) => `cantrip/${p}`)];
  const rows = results.benchmarks.map((b) => [
    b.name,
    ...engines.map((e) => (b.errors[e] !== undefined ? 'FAIL' : ms(b.medianMs[e]))),
    ...peers.map((p) => times(b.cantripOver[p])),
  ]);
  const geo = [
    '**geometric mean**',
    ...engines.map((e) => `**${ms(results.geomeanMs[e])}**`),
    ...peers.map((p) => `**${times(results.geomeanCantripOver[p])}**`),
  ];
  return [header, header.map(() => '---'), ...rows, geo].map((cells) => `| ${cells.join(' | ')} |`);
}

function targetLines(results: LangResults): string[] {
  return results.targets.map((t) => {
    const verdict = t.pass === null ? 'n/a' : t.pass ? 'PASS' : 'MISS';
    const value = t.value === null ? '—' : `${t.value.toFixed(2)}×`;
    return `- ${verdict} — ${t.name} = ${value} (target ${t.goal}, geometric mean)`;
  });
}

function compileLines(results: LangResults): string[] {
  const c = results.compile;
  if (c === null) return [];
  if ('error' in c) return ['', `Compile throughput: not measured (${c.error})`];
  return [
    '',
    `Compile throughput: ${Math.round(c.linesPerSecond).toLocaleString('en-US')} lines/s ` +
      `(compile() of a generated ${c.lines.toLocaleString('en-US')}-line spell file, ` +
      `median ${c.medianMs.toFixed(0)} ms; cold first compile ${c.coldMs.toFixed(0)} ms)`,
    `Compiled tier: ${c.tierMsPer1000Words.toFixed(2)} ms per 1,000 bytecode words the first time ` +
      `(every function of that file compiled to JavaScript, ${c.tierWords.toLocaleString('en-US')} words); ` +
      `${c.tierCachedMsPer1000Words.toFixed(2)} ms in a new VM of the same module (source and functions remembered)`,
  ];
}

function problemLines(results: LangResults): string[] {
  const missing = results.engines.filter((e) => !e.available).map((e) => `- ${e.name} not run: ${e.reason ?? ''}`);
  const failed = results.benchmarks.flatMap((b) =>
    Object.entries(b.errors).map(([engine, error]) => `- ${b.name} on ${engine}: ${error}`),
  );
  const all = [...missing, ...failed];
  return all.length === 0 ? [] : ['', 'Problems:', ...all];
}

export function renderMarkdown(results: LangResults): string {
  const env = results.environment;
  const plan = results.plan;
  return [
    '## Language benchmarks',
    '',
    `Node ${env.node}, ${env.platform}/${env.arch}, ${env.cpu} (${env.cpus} CPUs). ` +
      `Median of ${plan.minRuns}–${plan.maxRuns} timed runs after ${plan.warmups} warm-up run(s); ` +
      'each run compiles and runs the whole program in an engine created once (startup excluded); ' +
      'every run\'s printed checksum is verified.',
    '',
    ...timesTable(results),
    '',
    'Targets (geometric mean over the suite):',
    ...targetLines(results),
    ...compileLines(results),
    ...problemLines(results),
  ].join('\n');
}
