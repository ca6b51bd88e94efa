/**
 * Measuring the cost model's constants (docs/security.md): how much time one
 * unit of fuel buys, against the cheapest loop measured in the same process,
 * and how much memory one heap unit keeps alive.
 *
 * Time is measured, never asserted raw: a case's ns per fuel is divided by the
 * baseline's (`while (true) {}`) measured right beside it, so a loaded machine
 * slows both. A case over the bound is measured again, interleaved with the
 * baseline, and judged by the median of those ratios, so one scheduling hiccup
 * cannot fail a run.
 */

import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { compile } from '../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { World } from '../../runtime/world/world.js';
import type { Budgets } from '../../vm/budgets.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { Fiber } from '../../vm/fiber.js';
import { DEFAULT_BUDGETS } from '../../vm/budgets.js';
import { measureFuel, measureRetained } from '../../vm/retained-heap.js';
import { VM, type Tier } from '../../vm/vm.js';

/** Fuel every cast is charged for in effect before it runs an instruction (starting it, settling it): added to the fuel it used. */
export const CAST_CONSTANT = 1000;

/** A run to measure: a spell `go` in a bare VM, or cast on an entity of a world. */
export interface CostCase {
  readonly name: string;
  readonly source: string;
  /** 'vm': core builtins only; 'world': cast in a world (size and crowd below) with the game API. */
  readonly where: 'vm' | 'world';
  readonly world?: { readonly size: number; readonly entities: number };
  readonly budgets: Partial<Budgets>;
  /** What the VM's maxHeap counts ('vm' cases): 'retained' measures what is kept each time the allocations reach it. */
  readonly heapCounts?: 'allocated' | 'retained';
  /** The tier a 'vm' case runs on; default 'auto', as spells run. */
  readonly tier?: Tier;
}

export interface CostSample {
  readonly ns: number;
  readonly fuel: number;
  /** ns per unit of (fuel + CAST_CONSTANT). */
  readonly nsPerFuel: number;
  readonly heap: number;
  readonly state: string;
  readonly limit: string | null;
}

/** Casts `go` afresh each call; `reset`, when there is one, runs before each timed call (untimed). */
type Runner = (() => Fiber) & { reset?: () => void };

/** Compile (and, for worlds, build) once; the returned runner casts `go` afresh each call. */
export function prepare(c: CostCase): Runner | null {
  if (c.where === 'vm') {
    const { module } = compile(c.source, { sourceName: `${c.name}.spell`, hosts: CORE_HOST_FUNCTIONS });
    if (module === null) return null;
    // The top-level script (which may build big values) runs unbudgeted; the measured cast runs under c.budgets.
    const vm = new VM(module, { hosts: CORE_HOST_FUNCTIONS, print: () => {}, fuel: 1e9, maxHeap: 1e9, heapCounts: c.heapCounts ?? 'allocated', tier: c.tier ?? 'auto' });
    const script = vm.runScript();
    if (script.state !== 'done') return null;
    return () => vm.cast('go', [], c.budgets);
  }
  const size = c.world?.size ?? 100;
  const world = new World({ width: size, height: size, capacity: 4096, budgets: c.budgets });
  try {
    world.loadSpells(c.source, `${c.name}.spell`);
  } catch {
    return null;
  }
  world.loadBreeds({ breeds: [{ name: 'Imp' }, { name: 'Ogre', tags: ['big'] }] });
  let caster = world.spawn('Imp', 0, 0);
  const crowd = c.world?.entities ?? 1;
  for (let i = 1; i < crowd; i++) world.spawn(i % 2 === 0 ? 'Imp' : 'Ogre', (i * 7919) % size, (i * 104729) % size);
  world.on(() => {});
  const run: Runner = () => {
    const fiber = world.cast('go', caster).fiber;
    world.flush();
    return fiber;
  };
  // Every sample casts from a fresh caster: what the last cast left on its caster (64 buffs, after which
  // buff fails at once) would otherwise make the next sample measure a cast that ends before its loop.
  run.reset = () => {
    world.despawn(caster);
    world.step();
    caster = world.spawn('Imp', 0, 0);
  };
  return run;
}

/** Run once and time it. */
export function sample(run: Runner, budgets: Partial<Budgets>): CostSample {
  run.reset?.();
  const started = process.hrtime.bigint();
  const fiber = run();
  const ns = Number(process.hrtime.bigint() - started);
  const fuel = Math.max(0, (budgets.fuel ?? 0) - fiber.fuel);
  return {
    ns,
    fuel,
    nsPerFuel: ns / (fuel + CAST_CONSTANT),
    heap: fiber.heapUsed,
    state: fiber.state,
    limit: fiber.error?.limit ?? null,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The reference: `while (true) {}` under `fuel` on the interpreter, the cheapest work per
 * fuel the interpreter does. (Compiled, the same loop is 20–30× cheaper per fuel: the bound
 * is on what a unit of fuel can cost, so it is measured against the interpreter, and every
 * case runs as spells do, on the tier `auto` picks.) CANTRIP_COST_BASELINE=compiled measures
 * against the compiled loop instead (docs/security.md: the bound does not hold against it).
 */
export const BASELINE: CostCase = {
  name: 'baseline',
  where: 'vm',
  source: 'spell go() { while (true) {} }',
  budgets: { fuel: 2_000_000 },
  tier: process.env.CANTRIP_COST_BASELINE === 'compiled' ? 'compiled' : 'interpreter',
};

export class Calibration {
  private readonly baseline: Runner;
  /** ns per fuel of the baseline, median of the first measurements. */
  readonly nsPerFuel: number;

  constructor() {
    this.baseline = prepare(BASELINE)!;
    for (let i = 0; i < 5; i++) this.baselineSample(); // warm the interpreter
    this.nsPerFuel = median(Array.from({ length: 7 }, () => this.baselineSample()));
  }

  baselineSample(): number {
    return sample(this.baseline, BASELINE.budgets).nsPerFuel;
  }

  /**
   * A case's ns per fuel as a multiple of the baseline's. Measured once; when that is over
   * `suspectAbove`, measured `repeats` more times, each beside a fresh baseline sample, and
   * the median of those ratios is the answer.
   */
  /** `ratio` for work timed outside a cast (a measurement of retained memory): ns per the fuel it is charged. */
  ratioOfTimed(timed: () => { ns: number; fuel: number }, suspectAbove: number, repeats = 7): number {
    const perFuel = (): number => {
      const { ns, fuel } = timed();
      return ns / Math.max(1, fuel);
    };
    const quick = perFuel() / this.nsPerFuel;
    if (quick <= suspectAbove) return quick;
    const ratios: number[] = [];
    for (let i = 0; i < repeats; i++) {
      const base = this.baselineSample();
      ratios.push(perFuel() / base);
    }
    return median(ratios);
  }

  ratio(run: Runner, budgets: Partial<Budgets>, suspectAbove: number, repeats = 7): { ratio: number; sample: CostSample } {
    const first = sample(run, budgets);
    const quick = first.nsPerFuel / this.nsPerFuel;
    if (quick <= suspectAbove) return { ratio: quick, sample: first };
    const ratios: number[] = [];
    let last = first;
    for (let i = 0; i < repeats; i++) {
      const base = this.baselineSample();
      last = sample(run, budgets);
      ratios.push(last.nsPerFuel / base);
    }
    return { ratio: median(ratios), sample: last };
  }
}

/**
 * One measurement of what a script's globals keep (vm/retained-heap.ts, as a wait or a
 * retained heap budget measures), timed, with the fuel it is charged.
 */
export function prepareMeasuring(source: string): () => { ns: number; fuel: number } {
  const { module } = compile(source, { sourceName: 'kept.spell', hosts: CORE_HOST_FUNCTIONS });
  if (module === null) throw new Error(`does not compile: ${source}`);
  const vm = new VM(module, { hosts: CORE_HOST_FUNCTIONS, print: () => {}, fuel: 1e9, maxHeap: 1e9 });
  vm.runScript();
  const globals = vm.snapshotAccess().globals;
  const roots = new Fiber(DEFAULT_BUDGETS, null); // no stack, no frames: the globals are all it reaches
  const out = { units: 0, visits: 0, objects: 0 };
  for (let i = 0; i < 3; i++) measureRetained(roots, 0, 0, globals, Infinity, Infinity, out); // warm the walk, as a long-running world has
  // Measured again for half a millisecond, five times over; the quickest window counts (on a shared
  // machine the others are the same work plus time the process was not running).
  const window = (): { ns: number; fuel: number } => {
    const started = process.hrtime.bigint();
    let fuel = 0;
    let ns = 0;
    do {
      measureRetained(roots, 0, 0, globals, Infinity, Infinity, out);
      fuel += measureFuel(out.visits, out.objects);
      ns = Number(process.hrtime.bigint() - started);
    } while (ns < 500_000);
    return { ns, fuel };
  };
  return () => {
    let best = window();
    for (let i = 0; i < 4; i++) {
      const next = window();
      if (next.ns / next.fuel < best.ns / best.fuel) best = next;
    }
    return best;
  };
}

let collect: (() => void) | null = null;

/** A full garbage collection (the flag can be set at run time; a new context then sees `gc`). */
export function fullGc(): void {
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
}

/**
 * Bytes a cast keeps alive per heap unit it was charged: its program keeps everything it
 * allocates in the global `keep`, until the heap budget ends it. Measured as the heap's
 * growth across the cast, after full collections, with the VM (and so `keep`) still alive.
 */
export function retainedPerUnit(source: string, maxHeap: number): { bytes: number; units: number; perUnit: number; limit: string | null } {
  const { module } = compile(source, { sourceName: 'keep.spell', hosts: CORE_HOST_FUNCTIONS });
  if (module === null) throw new Error(`does not compile: ${source}`);
  const vm = new VM(module, { hosts: CORE_HOST_FUNCTIONS, print: () => {}, fuel: 1e9, maxHeap: 1e9 });
  vm.runScript();
  fullGc();
  const before = process.memoryUsage().heapUsed;
  const fiber = vm.cast('go', [], { fuel: 1e9, maxHeap });
  fullGc();
  const after = process.memoryUsage().heapUsed;
  // Keep the VM (and what it holds) alive until measured.
  const units = fiber.heapUsed + (vm.getGlobal('keep') === undefined ? 0 : 0);
  const bytes = Math.max(0, after - before);
  return { bytes, units, perUnit: bytes / Math.max(1, units), limit: fiber.error?.limit ?? null };
}
