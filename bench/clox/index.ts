/**
 * Cantrip against clox, the C VM of the same design (*Crafting
 * Interpreters*), on the book's own benchmark programs: each program run
 * as a whole process — `node bin/cantrip.js run X.lox` against `clox
 * X.lox` — best of N wall times, the ratio Cantrip / clox per program and
 * its geometric mean. Every program must run to completion in both (the
 * exit code and the last line printed are checked).
 *
 * Neither clox nor the benchmarks are part of this repository. Build them
 * from the book's repository (github.com/munificent/craftinginterpreters):
 *
 *   gcc -O2 -o clox c/*.c                      (NAN_BOXING on, as it ships)
 *   CANTRIP_CLOX=/path/to/clox CANTRIP_CLOX_BENCHMARKS=/path/to/test/benchmark \
 *     npm run bench -- clox                     (or node dist/bench/clox/index.js)
 *
 * Without them the suite says how to get them and skips (never a failure).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../lang/paths.js';

/**
 * The book's benchmarks that clox runs as written (its compiler refuses
 * string_equality.lox: "Too many constants in one chunk"; zoo_batch and
 * trees loop on the clock or run for minutes).
 */
const PROGRAMS = ['fib', 'method_call', 'invocation', 'properties', 'instantiation', 'zoo', 'binary_trees', 'equality'] as const;

interface Timing {
  readonly program: string;
  readonly cantripMs: number;
  /** Cantrip on its interpreter alone (`--tier interpreter`), to show what the compiled tier gains. */
  readonly interpreterMs: number;
  readonly cloxMs: number;
  readonly ratio: number;
}

/** Best-of-`runs` wall time of a whole process; throws when a run does not end with exit 0 (every program must run to completion). */
function timeProcess(command: string, args: readonly string[], runs: number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${(result.stderr || result.stdout).slice(-400)}`);
    best = Math.min(best, ms);
  }
  return best;
}

export async function run(options: { quick?: boolean } = {}): Promise<Timing[]> {
  const clox = process.env['CANTRIP_CLOX'];
  const folder = process.env['CANTRIP_CLOX_BENCHMARKS'];
  console.log('\n== clox (the book\'s benchmarks, whole process, best of runs)');
  if (!clox || !folder || !existsSync(clox) || !existsSync(folder)) {
    console.log(
      'skipped: set CANTRIP_CLOX to a clox binary (gcc -O2 -o clox c/*.c in github.com/munificent/craftinginterpreters) ' +
        'and CANTRIP_CLOX_BENCHMARKS to its test/benchmark folder.',
    );
    return [];
  }
  const runs = options.quick ? 1 : 3;
  const available = new Set(readdirSync(folder).map((f) => basename(f, '.lox')));
  const launcher = join(REPO_ROOT, 'bin', 'cantrip.js');
  const timings: Timing[] = [];
  console.log('program            Cantrip  interpreter       clox   Cantrip/clox  interpreter/clox');
  for (const program of PROGRAMS) {
    if (!available.has(program)) continue;
    const file = join(folder, `${program}.lox`);
    let cloxMs: number;
    let cantripMs: number;
    let interpreterMs: number;
    try {
      cloxMs = timeProcess(clox, [file], runs);
      cantripMs = timeProcess(process.execPath, [launcher, 'run', file], runs);
      interpreterMs = timeProcess(process.execPath, [launcher, 'run', '--tier', 'interpreter', file], runs);
    } catch (error) {
      console.log(`${program.padEnd(16)} did not run to completion: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const timing = { program, cantripMs, interpreterMs, cloxMs, ratio: cantripMs / cloxMs };
    timings.push(timing);
    console.log(
      `${program.padEnd(16)} ${cantripMs.toFixed(0).padStart(7)} ms ${interpreterMs.toFixed(0).padStart(9)} ms ${cloxMs.toFixed(0).padStart(7)} ms ` +
        `${timing.ratio.toFixed(2).padStart(10)}× ${(interpreterMs / cloxMs).toFixed(2).padStart(14)}×`,
    );
  }
  const geomean = (ratio: (t: Timing) => number): number =>
    Math.exp(timings.reduce((sum, t) => sum + Math.log(ratio(t)), 0) / Math.max(1, timings.length));
  console.log(
    `geometric mean of Cantrip/clox: ${geomean((t) => t.ratio).toFixed(2)}× over ${timings.length} programs (below 1: Cantrip is faster); ` +
      `on the interpreter alone ${geomean((t) => t.interpreterMs / t.cloxMs).toFixed(2)}×`,
  );
  return timings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  run({ quick: process.argv.includes('--quick') }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
