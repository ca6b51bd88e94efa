/**
 * What a cast and a host call cost on the VM alone, steadier than a World
 * step (no entity arrays, no index: ±1–2 ns between runs on the project's
 * shared 2-core machine, where a World step moves by 10–20%):
 *
 *   npm run build && node --expose-gc --no-flush-bytecode dist/bench/embedding/cast-cost.js [--tier auto|interpreter|compiled] [--many] [--rounds N]
 *
 * A cast loop (vm/fast-loop.ts) casts each spell 10,000 times per batch;
 * the spells are an empty one, one `random()`, three, and one call with
 * three typed arguments. Prints the CPU time per cast (the 10th percentile
 * of the rounds) and, for the others, what they cost over the empty one:
 * the price of a host call. The empty spell is also cast with its two
 * arguments passed as such and no outcome filled for a cast that finishes
 * (`runPairUnlessDone`), and the way a World's tick phase casts it (one
 * batch: `runPairInBatch`, the loop's fiber held open between runs and a
 * compiled spell entered through its loop entry). `--many` first runs a spell calling 11 other
 * host functions, so that any call site shared by all host functions has
 * seen many (a game's case; the World benchmark calls only two).
 */

import { parseArgs } from 'node:util';
import { compile } from '../../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { hostFunction, type HostFunction } from '../../vm/host.js';
import type { Value } from '../../vm/value.js';
import { VM, type Tier } from '../../vm/vm.js';
import { cpuMs } from '../spatial/table.js';

const CASES: readonly [string, string, Road?][] = [
  ['empty', 'spell drift(self, dt) {}'],
  ['empty, pair road', 'spell drift(self, dt) {}', 'pair'],
  ['empty, tick phase road', 'spell drift(self, dt) {}', 'batch'],
  ['random() once', 'spell drift(self, dt) { random(); }'],
  ['random() three times', 'spell drift(self, dt) { random(); random(); random(); }'],
  ['setv(self, 1, 2)', 'spell drift(self, dt) { setv(self, 1, 2); }'],
];

const MANY = 'spell drift(self, dt) { var a = floor(1.5) + abs(-2) + sqrt(4) + min(1, 2) + clamp(5, 0, 3) + lerp(0, 1, 0.5) + pi() + random() + len("ab") + pow(2, 2) + atan2(1, 1); }';

/** The host table: the core functions with a cheap seeded random(), and setv (three typed arguments). */
function hostTable(): HostFunction[] {
  const state = new Uint32Array(1);
  state[0] = 7;
  const nextRandom = (): number => {
    state[0] = (Math.imul(state[0]!, 1_103_515_245) + 12_345) >>> 0;
    return state[0]! / 4_294_967_296;
  };
  // Written by setv and read by nobody: a closure's variable, which V8 does not optimize away.
  let sink = 0;
  return [
    ...CORE_HOST_FUNCTIONS.filter((h) => h.name !== 'random'),
    hostFunction({ name: 'random', params: [], returns: 'number', doc: 'A seeded random number.', impl: nextRandom }),
    hostFunction({
      name: 'setv',
      params: [
        { name: 'e', type: 'number' },
        { name: 'x', type: 'number' },
        { name: 'y', type: 'number' },
      ],
      returns: 'nil',
      doc: 'Store a velocity.',
      impl: (_ctx, e, x, y) => {
        sink += e + x + y;
        return null;
      },
    }),
  ];
}

function vmFor(source: string, hosts: readonly HostFunction[], tier: Tier): VM {
  const { module, diagnostics } = compile(source, { sourceName: 'cast-cost.spell', hosts });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return new VM(module, { hosts, tier });
}


const BATCH = 10_000;
const args: Value[] = [0, 0.1];

/** How a batch casts: `run` (an outcome per cast), `pair` (runPairUnlessDone), or `batch` (runPairInBatch, as a World's tick phase does). */
type Road = 'run' | 'pair' | 'batch';

/** One batch: a cast loop over BATCH casts. */
function batch(vm: VM, road: Road = 'run'): void {
  const loop = vm.castLoop('drift');
  if (road === 'pair') {
    for (let i = 0; i < BATCH; i++) {
      const out = loop.runPairUnlessDone(i, args[1]!);
      if (out !== null && out.state !== 'done') throw new Error(out.error?.message ?? out.state);
    }
  } else if (road === 'batch') {
    for (let i = 0; i < BATCH; i++) {
      const out = loop.runPairInBatch(i, args[1]!);
      if (out !== null && out.state !== 'done') throw new Error(out.error?.message ?? out.state);
    }
  } else {
    for (let i = 0; i < BATCH; i++) {
      args[0] = i;
      const out = loop.run(args);
      if (out.state !== 'done') throw new Error(out.error?.message ?? out.state);
    }
  }
  loop.close();
}

function main(): void {
  const { values } = parseArgs({ options: { tier: { type: 'string', default: 'auto' }, many: { type: 'boolean', default: false }, rounds: { type: 'string', default: '21' } } });
  const tier = values.tier as Tier;
  const rounds = Math.max(3, Number(values.rounds) || 21);
  const hosts = hostTable();
  if (values.many) for (let i = 0; i < 5; i++) batch(vmFor(MANY, hosts, tier));
  const rows = CASES.map(([name, source, road]) => ({ name, road: road ?? 'run', vm: vmFor(source, hosts, tier), times: [] as number[] }));
  for (const row of rows) for (let i = 0; i < 300; i++) batch(row.vm, row.road);
  for (let r = 0; r < rounds; r++) {
    for (const row of r % 2 === 0 ? rows : [...rows].reverse()) {
      const start = cpuMs();
      for (let i = 0; i < 20; i++) batch(row.vm, row.road);
      row.times.push(((cpuMs() - start) / 20 / BATCH) * 1e6);
    }
  }
  const low = (times: readonly number[]): number => [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.1)]!;
  const empty = low(rows[0]!.times);
  console.log(`tier ${tier}${values.many ? ', 11 other host functions in use' : ''}; ns per cast (10th percentile of ${rounds} rounds, CPU time)`);
  for (const row of rows) {
    const ns = low(row.times);
    const over =
      row === rows[0] ? '' : row.road !== 'run' ? `   ${(empty - ns).toFixed(1).padStart(5)} ns less than run()` : `   ${(ns - empty).toFixed(1).padStart(5)} ns over the empty cast`;
    console.log(`  ${row.name.padEnd(24)} ${ns.toFixed(1).padStart(6)} ns${over}`);
  }
}

main();
