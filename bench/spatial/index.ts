/**
 * `npm run bench -- --only spatial`: the spatial partition suite.
 *
 *   1. moving-entity neighbour queries at 1k / 10k / 100k entities: grid,
 *      axis lists, rbush rebuilt per tick, rbush remove+insert, kdbush
 *      rebuilt per tick, brute force (to 10k);
 *   2. AOI per tick at 10k / 100k entities with 1%, 10% and 100% of them
 *      moving: the library's AreaOfInterest (cost follows change; grid and
 *      axis engines, with and without move notifications) beside the
 *      recompute-and-diff pass it replaced (bench/spatial/recompute-aoi);
 *   3. heap growth over 10,000 steady-state ticks.
 *
 * Every contender's neighbour counts are checked against the grid's before
 * it is timed, so the ratios compare equal work.
 */

import { writeFileSync } from 'node:fs';
import { median } from '../lang/measure.js';
import { makeAoiRig, type AoiImplementation } from './aoi-events.js';
import { measureSteadyHeap, measureWorldHeap, measureWorldStep, type HeapResult } from './heap.js';
import { CONTENDERS, MovingWorld, QUERY_RADIUS, neighbourCounts } from './neighbours.js';
import { fmt, formatTable, timePerRun } from './table.js';
import type { AoiEventKind } from '../../runtime/aoi/aoi.js';

export interface NeighbourRow {
  readonly n: number;
  readonly contender: string;
  readonly msPerTick: number;
  readonly usPerEntity: number;
  /** This contender's time over the grid's (> 1: the grid is faster). */
  readonly overGrid: number;
}

export interface AoiRow {
  readonly n: number;
  /** Share of the entities that move each tick. */
  readonly movers: number;
  readonly partition: 'grid' | 'axis';
  readonly implementation: AoiImplementation;
  readonly msPerTick: number;
  /** The recompute baseline's time (grid, same n and movers) over this one's: > 1 is faster than it. */
  readonly speedup: number;
  readonly enterPerTick: number;
  readonly movePerTick: number;
  readonly leavePerTick: number;
}

export interface SpatialResults {
  readonly neighbours: readonly NeighbourRow[];
  readonly aoi: readonly AoiRow[];
  readonly heap: HeapResult;
  readonly worldHeap: HeapResult;
  readonly worldStep: { readonly entities: number; readonly msPerStep: number; readonly usPerCast: number };
  readonly targets: readonly { readonly n: number; readonly target: string; readonly ratio: number; readonly met: boolean }[];
  readonly aoiTargets: readonly { readonly n: number; readonly target: string; readonly ratio: number; readonly met: boolean }[];
}

export interface RunOptions {
  quick?: boolean;
  sizes?: readonly number[];
  /** Write results.md next to this file's source (full runs only). */
  write?: boolean;
}

export async function run(options: RunOptions = {}): Promise<SpatialResults> {
  const quick = options.quick ?? false;
  const sizes = options.sizes ?? (quick ? [1000, 10_000] : [1000, 10_000, 100_000]);
  const timing = { warmup: 2, minMs: quick ? 150 : 1500, maxRuns: 2000 };
  const log = (s: string): void => {
    process.stdout.write(s + '\n');
  };

  log(`\n## Spatial partition: moving-entity neighbour queries (r = ${QUERY_RADIUS}, ~7 neighbours each)\n`);
  const neighbours: NeighbourRow[] = [];
  for (const n of sizes) {
    const reference = neighbourCounts(CONTENDERS[0]!, n, 2);
    let gridMs = 0;
    for (const contender of CONTENDERS) {
      if (n > contender.maxN) continue;
      const counts = neighbourCounts(contender, n, 2);
      if (counts.join() !== reference.join()) {
        throw new Error(`${contender.name} found ${counts.join()} neighbours at n=${n}, the grid ${reference.join()}`);
      }
      const world = new MovingWorld(n);
      const tick = contender.prepare(world);
      const ms = timePerRun(
        () => {
          world.step();
          tick();
        },
        { ...timing, maxRuns: n >= 100_000 ? 20 : timing.maxRuns },
      );
      if (contender === CONTENDERS[0]) gridMs = ms;
      neighbours.push({ n, contender: contender.name, msPerTick: ms, usPerEntity: (ms * 1000) / n, overGrid: ms / gridMs });
    }
  }
  log(
    'Axis lists and brute force run up to 10k entities only: both cost O(n^1.5) or worse per tick (seconds at 100k).\n',
  );
  log(
    formatTable(
      ['n', 'structure', 'ms / tick', 'µs / entity', '× grid time'],
      neighbours.map((r) => [String(r.n), r.contender, fmt(r.msPerTick), fmt(r.usPerEntity), fmt(r.overGrid)]),
    ),
  );

  const targets = neighbours
    .filter((r) => r.n >= 10_000 && (r.contender === 'rbush rebuilt (load)' || r.contender === 'kdbush rebuilt'))
    .map((r) => {
      const need = r.contender === 'kdbush rebuilt' ? 1 : 3;
      return { n: r.n, target: `grid ≥ ${need}× faster than ${r.contender}`, ratio: r.overGrid, met: r.overGrid >= need };
    });
  log('\nTargets (10k entities and above):');
  for (const t of targets) log(`  ${t.met ? 'met    ' : 'NOT MET'} n=${t.n}: ${t.target} — measured ${fmt(t.ratio)}×`);

  const { aoi, aoiTargets } = runAoi(quick ? [10_000] : [10_000, 100_000], timing, log);

  const heapTicks = quick ? 2000 : 10_000;
  log(`\n## Heap growth over ${heapTicks} steady-state ticks (1000 entities: move, churn, queries, AOI)\n`);
  const heap = measureSteadyHeap(1000, heapTicks);
  log(
    `  heap after warm-up ${(heap.beforeBytes / 1024).toFixed(0)} KiB, after ${heap.ticks} ticks ${(heap.afterBytes / 1024).toFixed(0)} KiB: ` +
      `growth ${(heap.growthBytes / 1024).toFixed(1)} KiB (${heap.bytesPerTick.toFixed(2)} bytes/tick)` +
      (heap.gcAvailable ? '' : ' — no gc available, figures include garbage'),
  );

  log(`\n## Heap growth of a World over ${heapTicks} steps (100 entities with a tick spell each, AOI spells, churn)\n`);
  const worldHeap = await measureWorldHeap(100, heapTicks);
  log(
    `  heap after warm-up ${(worldHeap.beforeBytes / 1024).toFixed(0)} KiB, after ${worldHeap.ticks} steps ${(worldHeap.afterBytes / 1024).toFixed(0)} KiB: ` +
      `growth ${(worldHeap.growthBytes / 1024).toFixed(1)} KiB (${worldHeap.bytesPerTick.toFixed(2)} bytes/step)` +
      (worldHeap.gcAvailable ? '' : ' — no gc available, figures include garbage'),
  );

  log('\n## World step cost (1000 entities, each running a tick spell: one cast apiece per step, plus AOI)\n');
  const step = await measureWorldStep(1000, timing.minMs);
  log(`  ${fmt(step.msPerStep)} ms per step, ${fmt(step.usPerCast)} µs per entity (cast + movement + index + AOI)`);
  const worldStep = { entities: 1000, ...step };

  const results: SpatialResults = { neighbours, aoi, heap, worldHeap, worldStep, targets, aoiTargets };
  if (options.write ?? !quick) writeResults(results);
  return results;
}

const AOI_CONTENDERS: readonly { partition: 'grid' | 'axis'; implementation: AoiImplementation; maxN: number }[] = [
  { partition: 'grid', implementation: 'recompute', maxN: Infinity },
  { partition: 'grid', implementation: 'changes', maxN: Infinity },
  { partition: 'grid', implementation: 'changes, no moves', maxN: Infinity },
  { partition: 'axis', implementation: 'changes', maxN: Infinity },
  // The axis lists' range queries scan a strip across the world: seconds per tick at 100k.
  { partition: 'axis', implementation: 'recompute', maxN: 10_000 },
];

/**
 * AOI per tick: the time of the AOI pass itself (moving the entities and
 * updating the index cost every contender the same). Each contender's
 * enter / move / leave counts over two ticks are checked against the
 * baseline's before it is timed, so the times compare equal work. The grid
 * contenders are timed in alternating rounds (the median round counts), so
 * a change in the machine's load falls on all of them alike; the axis
 * contenders, far slower at 100k, are timed one after the other.
 */
export function runAoi(
  sizes: readonly number[],
  timing: { warmup: number; minMs: number; maxRuns: number },
  log: (s: string) => void,
): { aoi: AoiRow[]; aoiTargets: SpatialResults['aoiTargets'] } {
  log('\n## AOI per tick: a share of the entities moves, then enter / move / leave (square of half-side r = 10; time of the AOI pass)\n');
  const aoi: AoiRow[] = [];
  for (const n of sizes) {
    for (const movers of [0.01, 0.1, 1]) {
      const stride = Math.round(1 / movers);
      let reference: Record<AoiEventKind, number> | null = null;
      const rigs = AOI_CONTENDERS.filter((c) => n <= c.maxN).map((c) => {
        const rig = makeAoiRig(n, { partition: c.partition, implementation: c.implementation, moverStride: stride });
        rig.tick();
        rig.events.enter = rig.events.move = rig.events.leave = 0;
        rig.tick();
        rig.tick();
        const seen = { ...rig.events };
        reference ??= seen;
        const moves = c.implementation === 'changes, no moves' ? 0 : reference.move;
        if (seen.enter !== reference.enter || seen.leave !== reference.leave || seen.move !== moves) {
          throw new Error(`AOI ${c.partition}/${c.implementation} at n=${n}: ${JSON.stringify(seen)}, the baseline ${JSON.stringify(reference)}`);
        }
        rig.events.enter = rig.events.move = rig.events.leave = 0;
        return { contender: c, rig, ticks: 0, aoiMs: 0, rounds: [] as number[] };
      });
      const grid = rigs.filter((r) => r.contender.partition === 'grid');
      // Rounds of a few ticks each, the contenders in turn: about minMs for the slowest in all.
      const rounds = n >= 100_000 ? 5 : 9;
      const ticksPerRound = n >= 100_000 ? 2 : Math.max(2, Math.round(timing.minMs / rounds / 10));
      for (let round = 0; round < rounds; round++) {
        for (const r of grid) {
          r.rig.aoiMs = 0;
          for (let t = 0; t < ticksPerRound; t++) r.rig.tick();
          r.ticks += ticksPerRound;
          r.aoiMs += r.rig.aoiMs;
          r.rounds.push(r.rig.aoiMs / ticksPerRound);
        }
      }
      for (const r of rigs) {
        if (r.contender.partition === 'grid') continue;
        r.rig.aoiMs = 0;
        timePerRun(
          () => {
            r.rig.tick();
            r.ticks++;
          },
          { ...timing, warmup: 0, maxRuns: n >= 100_000 ? 20 : timing.maxRuns },
        );
        r.rounds.push(r.rig.aoiMs / r.ticks);
      }
      const baseMs = median(rigs[0]!.rounds);
      for (const r of rigs) {
        const ms = median(r.rounds);
        aoi.push({
          n,
          movers,
          partition: r.contender.partition,
          implementation: r.contender.implementation,
          msPerTick: ms,
          speedup: baseMs / ms,
          enterPerTick: r.rig.events.enter / r.ticks,
          movePerTick: r.rig.events.move / r.ticks,
          leavePerTick: r.rig.events.leave / r.ticks,
        });
      }
    }
  }
  log(
    formatTable(
      ['n', 'movers', 'index', 'AOI', 'ms / tick', '× faster than recompute (grid)', 'enter / tick', 'move / tick', 'leave / tick'],
      aoi.map((r) => [
        String(r.n),
        `${r.movers * 100}%`,
        r.partition,
        r.implementation,
        fmt(r.msPerTick),
        fmt(r.speedup),
        fmt(r.enterPerTick),
        fmt(r.movePerTick),
        fmt(r.leavePerTick),
      ]),
    ),
  );
  const aoiTargets = aoi
    .filter((r) => r.partition === 'grid' && r.implementation === 'changes' && r.movers >= 0.1)
    .map((r) => {
      const need = r.movers === 0.1 ? 5 : 1;
      const target = `AOI at ${r.movers * 100}% movers ≥ ${need}× faster than recompute-and-diff`;
      return { n: r.n, target, ratio: r.speedup, met: r.speedup >= need };
    });
  log('\nTargets (grid, move notifications on):');
  for (const t of aoiTargets) log(`  ${t.met ? 'met    ' : 'NOT MET'} n=${t.n}: ${t.target} — measured ${fmt(t.ratio)}×`);
  return { aoi, aoiTargets };
}

function writeResults(results: SpatialResults): void {
  try {
    const url = new URL('../../../bench/results/spatial.json', import.meta.url);
    writeFileSync(url, JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, ...results }, null, 2) + '\n');
  } catch {
    // Results are a convenience; a read-only checkout still prints the tables.
  }
}
