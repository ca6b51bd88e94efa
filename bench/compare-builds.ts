/**
 * Compare this build with another in ONE process, runs interleaved, so the
 * load of a shared machine falls on both alike (separate runs minutes apart
 * moved by ±20% here, more than the changes being judged):
 *
 *   npm run build && node --expose-gc --no-flush-bytecode dist/bench/compare-builds.js <other dist> [--rounds N] [--only a,b]
 *
 * `<other dist>` is another checkout's compiled `dist/` (for example
 * `git worktree add /tmp/old <commit>`, build it there, pass `/tmp/old/dist`).
 * Each build loads its own copy of every module, so V8's feedback is not
 * shared. Measured: the language suite's programs (script run time), and the
 * world step of the embedding suite (10,000 entities with the `drift` tick
 * spell). Prints the median of each side, their ratio, and the geometric
 * mean of the programs' ratios.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cantripWorld } from './embedding/world-tick.js';
import { median } from './lang/measure.js';
import { PROGRAMS_DIR } from './lang/paths.js';

interface Side {
  readonly name: string;
  readonly dist: string;
}

type Runner = () => number;

/** A program of the language suite on one build: a fresh VM per run, timed over its script. */
async function programRunner(dist: string, source: string): Promise<Runner | null> {
  const { compile } = (await import(resolve(dist, 'compiler/index.js'))) as typeof import('../compiler/index.js');
  const { VM } = (await import(resolve(dist, 'vm/vm.js'))) as typeof import('../vm/vm.js');
  const { module } = compile(source);
  if (!module) return null; // the other build may not have this program's features
  return () => {
    const vm = new VM(module, { print: () => {}, fuel: Infinity, maxHeap: Infinity });
    const start = performance.now();
    const fiber = vm.runScript();
    const ms = performance.now() - start;
    if (fiber.state !== 'done') throw new Error(fiber.error?.message ?? fiber.state);
    return ms;
  };
}

/** The embedding suite's World contender (cantripWorld) built with one build's World: 20 steps a run, warmed up first. */
async function worldRunner(dist: string, entities: number): Promise<Runner> {
  const { World } = (await import(resolve(dist, 'runtime/index.js'))) as typeof import('../runtime/index.js');
  const world = cantripWorld(entities, World);
  const warmStart = performance.now();
  for (let i = 0; i < 400 && performance.now() - warmStart < 1500; i++) world.step();
  return () => {
    const start = performance.now();
    for (let i = 0; i < 20; i++) world.step();
    return (performance.now() - start) / 20;
  };
}

/** Run both sides' runners in alternating order, `rounds` times each; their medians. */
function interleave(a: Runner, b: Runner, rounds: number): [number, number] {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      ta.push(a());
      tb.push(b());
    } else {
      tb.push(b());
      ta.push(a());
    }
  }
  return [median(ta), median(tb)];
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '9' }, only: { type: 'string' } },
  });
  if (positionals.length !== 1) {
    console.error('usage: node dist/bench/compare-builds.js <other dist> [--rounds N] [--only name,…]');
    process.exit(64);
  }
  const rounds = Math.max(1, Number(values.rounds) || 9);
  const only = values.only?.split(',') ?? null;
  const other: Side = { name: 'other', dist: resolve(positionals[0]!) };
  const self: Side = { name: 'this', dist: resolve(import.meta.dirname, '..') };
  const programs = ['fib', 'loop', 'closures', 'method_call', 'properties', 'instantiation', 'binary_trees', 'string_equality', 'zoo', 'maps'];
  const rows: { name: string; other: number; self: number }[] = [];
  for (const name of programs) {
    if (only && !only.includes(name)) continue;
    const source = readFileSync(resolve(PROGRAMS_DIR, `${name}.spell`), 'utf8');
    const [a, b] = [await programRunner(other.dist, source), await programRunner(self.dist, source)];
    if (a === null || b === null) {
      console.log(`${name}: skipped (does not compile on the ${a === null ? 'other' : 'this'} build)`);
      continue;
    }
    const [ma, mb] = interleave(a, b, rounds);
    rows.push({ name, other: ma, self: mb });
    console.log(`${name.padEnd(16)} other ${ma.toFixed(1).padStart(7)} ms   this ${mb.toFixed(1).padStart(7)} ms   this/other ${(mb / ma).toFixed(2)}`);
  }
  if (rows.length > 0) {
    const geo = Math.exp(rows.reduce((sum, r) => sum + Math.log(r.self / r.other), 0) / rows.length);
    console.log(`geometric mean this/other over the ${rows.length} programs: ${geo.toFixed(3)}`);
  }
  if (!only || only.includes('world')) {
    const [a, b] = [await worldRunner(other.dist, 10_000), await worldRunner(self.dist, 10_000)];
    const [ma, mb] = interleave(a, b, rounds * 3);
    console.log(`${'world step 10k'.padEnd(16)} other ${ma.toFixed(2).padStart(7)} ms   this ${mb.toFixed(2).padStart(7)} ms   this/other ${(mb / ma).toFixed(2)}`);
  }
}

await main();
