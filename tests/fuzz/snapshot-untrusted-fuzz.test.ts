/**
 * Saves are untrusted input (issue 17, part 4; docs/security.md, "Saves"):
 * mutations of a rich world snapshot aimed at what a hostile player edits —
 * the type of every field, sizes that would make a restore allocate (stacks,
 * pools, forged fibers), budgets and limits, and counts beyond what a spell
 * could make (buffs, fields, AOI sets, fibers). Every restore must end in a
 * documented Cantrip error (WorldError, BreedError, VerifyError) or in a
 * world that runs within the embedder's budgets: its budgets and limits at
 * most the embedder's, no stack asked for beyond what the world heap allows,
 * and after some steps no more held than maxWorldHeap and no entity with
 * more buffs than a spell can give.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_MODIFIERS } from '../../runtime/entities/entity-state.js';
import { BreedError, WorldError } from '../../runtime/errors.js';
import { CAPPED_OPTIONS, type RestoreOptions } from '../../runtime/snapshot/world-snapshot-check.js';
import type { WorldSnapshot } from '../../runtime/snapshot/world-snapshot.js';
import { fieldCost } from '../../runtime/world/world-memory.js';
import { World } from '../../runtime/world/world.js';
import { SpellRuntimeError, VerifyError } from '../../vm/errors.js';
import { Fiber } from '../../vm/fiber.js';
import { checkProperty } from './fuzz-settings.js';

const SPELLS = `
var boss = spawn("Rock", 30, 30);
var total = 0;
class Box { init(v) { this.v = v; } get() { return this.v; } }
fun adder() { var n = 0; fun add(x) { n += x; return n; } return add; }
fun deep(t, add, items) { wait(0.3); damage(t, add(len(items))); return Box(items); }
spell hex(caster, target) {
  var add = adder();
  var items = [1, "two", nil, true];
  items.append(items);
  var box = deep(target, add, items);
  total += box.get()[0];
  wait(0.2);
  print str(total);
}
spell pulse(self, dt) { self.pulses = dt; }
spell greet(self, other) { self.last = other; }
spell hoard(caster) { var xs = []; while (true) { xs.append("x"); wait(0.1); } }
spell bless(caster, target) { buff(target, "speed", 1, 30); target.note = "blessed"; target.ratio = 0 / 0; }
`;
const BREEDS = {
  breeds: [
    { name: 'Imp', health: 50, interest: 4, speed: 1, spells: { tick: 'pulse', onEnter: 'greet' } },
    { name: 'Rock', health: 100 },
  ],
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A world with every kind of state a save holds: entities with fields and buffs, AOI sets, casts waiting deep in calls. */
function richSave(): Json {
  const world = new World({ width: 40, height: 40, capacity: 32, seed: 3 });
  world.loadBreeds(BREEDS);
  world.loadSpells(SPELLS, 'game.spell');
  const a = world.spawn('Imp', 1, 1);
  const b = world.spawn('Imp', 2, 2);
  const c = world.spawn('Imp', 3, 2);
  world.cast('bless', a, b);
  world.cast('hex', a, b);
  world.cast('hex', b, c);
  world.cast('hoard', c);
  world.step();
  world.despawn(c);
  world.cast('bless', b, a);
  return JSON.parse(JSON.stringify(world.snapshot())) as Json;
}

const BASE = richSave();

type Path = (string | number)[];

/** Paths to every node of the save; of long arrays (the pool's) only a few items. */
function pathsOf(node: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (node !== null && typeof node === 'object') {
    const entries = Object.entries(node);
    const picked = Array.isArray(node) && entries.length > 6 ? [...entries.slice(0, 3), entries[entries.length - 1]!] : entries;
    for (const [k, v] of picked) pathsOf(v, [...at, Array.isArray(node) ? Number(k) : k], out);
  }
  return out;
}

const PATHS = pathsOf(BASE).filter((p) => p.length > 0 && p[0] !== 'format');
const ARRAY_PATHS = PATHS.filter((p) => Array.isArray(get(BASE, p)));
const BUDGET_PATHS: Path[] = [
  ...Object.keys(BASE.options.budgets).map((k) => ['options', 'budgets', k]),
  ...CAPPED_OPTIONS.map((k) => ['options', k]),
  ...PATHS.filter((p) => p.includes('budgets') && p.length > 2 && p[p.length - 2] === 'budgets'),
  ...PATHS.filter((p) => p[p.length - 1] === 'fuel' || p[p.length - 1] === 'heapUsed'),
];

const CYCLE = Symbol('the container itself');
/** Wrong types, edge numbers and huge sizes. */
const VALUES: readonly unknown[] = [
  null, 'x', '', true, {}, [], [1, 2], -1, 0, 0.5, -0, 1, 2, 7, 64, 65, 1e308, -1e308, 2 ** 24, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 70_000, 1 << 20,
  10n, CYCLE, { entity: 1 }, { entity: 0 }, { number: 'NaN' }, { number: 'x' }, { r: 0 }, { r: 1e9 }, { n: 'NaN' }, { u: 1 }, { t: 'list', items: [] },
  { stat: 'speed', amount: 1, expiresAt: 1, seconds: 1, seq: 0 }, ['f', 1], [5, 1], ['__proto__', 'x'],
];
const BUDGET_VALUES: readonly unknown[] = [null, 'x', {}, true, -1, 0, 1, 100, 1e15, 10n];
const GROW_COUNTS = [2, 65, 300, 3_000, 70_000];

function get(root: unknown, path: Path): unknown {
  let node = root as Json | undefined;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function set(root: Json, path: Path, value: unknown): void {
  const parent = get(root, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return;
  (parent as Json)[path[path.length - 1]!] = value === CYCLE ? parent : structuredClone(value);
}

type Mutation =
  | { kind: 'value'; path: number; value: number }
  | { kind: 'budget'; path: number; value: number }
  | { kind: 'grow'; path: number; count: number }
  | { kind: 'forge'; count: number; maxStack: boolean };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('value' as const), path: fc.nat(PATHS.length - 1), value: fc.nat(VALUES.length - 1) }),
  fc.record({ kind: fc.constant('budget' as const), path: fc.nat(BUDGET_PATHS.length - 1), value: fc.nat(BUDGET_VALUES.length - 1) }),
  fc.record({ kind: fc.constant('grow' as const), path: fc.nat(ARRAY_PATHS.length - 1), count: fc.nat(GROW_COUNTS.length - 1) }),
  fc.record({ kind: fc.constant('forge' as const), count: fc.constantFrom(10, 1_000, 3_000), maxStack: fc.boolean() }),
);

function apply(data: Json, m: Mutation): void {
  switch (m.kind) {
    case 'value':
      return set(data, PATHS[m.path]!, VALUES[m.value]);
    case 'budget':
      return set(data, BUDGET_PATHS[m.path]!, BUDGET_VALUES[m.value]);
    case 'grow': {
      // More of the same: items repeated (a count beyond what a spell could make, or a size a restore would allocate for).
      const array = get(data, ARRAY_PATHS[m.path]!);
      if (!Array.isArray(array)) return;
      const count = GROW_COUNTS[m.count]!;
      const items = array.length > 0 ? array : [null];
      const grown = Array.from({ length: count }, (_, i) => items[i % items.length]);
      set(data, ARRAY_PATHS[m.path]!, grown);
      return;
    }
    case 'forge': {
      // The repro: one waiting fiber copied many times, each with its cast, its own limits lifted.
      const vm = data.spellState?.vms?.[0]?.state;
      const cast = data.spellState?.casts?.[0];
      if (!vm || !Array.isArray(vm.fibers) || vm.fibers.length === 0 || !cast) return;
      const fiber = { ...vm.fibers[0], budgets: m.maxStack ? { ...vm.fibers[0].budgets, maxStack: null, maxFrames: null, fuel: null } : vm.fibers[0].budgets };
      vm.fibers = Array.from({ length: m.count }, () => fiber);
      data.spellState.casts = Array.from({ length: m.count }, (_, i) => ({ ...cast, vm: 0, fiber: i, seq: i }));
      data.castSeq = m.count + 1_000;
      return;
    }
  }
}

/** The embedder's side: the defaults, or tight limits of its own. */
const EMBEDDERS: readonly RestoreOptions[] = [
  // The defaults, with saves bounded to 20 MB of JSON (the count of a save's size is linear in it; CI stays fast).
  { maxSnapshotChars: 20_000_000 },
  { budgets: { fuel: 20_000, maxStack: 2_000, maxFibers: 50, maxHeap: 50_000 }, maxWorldHeap: 300_000, maxCapacity: 256, maxEventsPerStep: 1_000, maxSnapshotChars: 2_000_000 },
];

/** What a new World would have under these options: the most a restored world may have. */
function allowedBy(options: RestoreOptions): World['options'] {
  return new World({ width: 1, height: 1, capacity: 1, ...options }).options;
}

function isCantripError(error: unknown): boolean {
  return error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError;
}

/** Heap units a save says its world holds: entity fields and waiting casts' allocations. */
function heldBy(save: WorldSnapshot): number {
  let units = 0;
  for (const e of save.entities) for (const [name, value] of e.fields) units += fieldCost(name, value as never);
  for (const vm of save.spellState.vms) for (const f of vm.state.fibers) units += f.heapUsed + f.stack.length;
  return units;
}

describe('saves are untrusted input', () => {
  let requested: number[] = [];
  beforeAll(() => {
    const grow = Fiber.prototype.growStack;
    vi.spyOn(Fiber.prototype, 'growStack').mockImplementation(function (this: Fiber, needed: number) {
      requested.push(needed);
      grow.call(this, needed);
    });
  });
  afterAll(() => vi.restoreAllMocks());

  it('the unmutated save restores under both embedders', () => {
    for (const embedder of EMBEDDERS) expect(World.restore(structuredClone(BASE) as WorldSnapshot, embedder).entities().length).toBe(3);
    expect(PATHS.length).toBeGreaterThan(300);
  });

  it('every mutated save is refused with a Cantrip error, or restores to a world within the embedder’s budgets', () => {
    const outcomes = { refused: 0, ran: 0 };
    checkProperty(
      'snapshot/untrusted-saves',
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.nat(EMBEDDERS.length - 1), (mutations, which) => {
        const embedder = EMBEDDERS[which]!;
        const allowed = allowedBy(embedder);
        const data = structuredClone(BASE);
        for (const m of mutations) apply(data, m);
        requested = [];
        let world: World;
        try {
          world = World.restore(data as WorldSnapshot, embedder);
        } catch (error) {
          expect(isCantripError(error), String(error)).toBe(true);
          expect((error as Error).message).not.toMatch(/Cannot read|is not a function|is not iterable|undefined \(reading/);
          // Refused or not, no stack past what the world heap allows was asked for.
          expect(requested.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(allowed.maxWorldHeap + 10_000);
          outcomes.refused++;
          return;
        }
        // Sizes: nothing allocated beyond the budgets.
        expect(requested.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(allowed.maxWorldHeap + 10_000);
        expect(world.pool.capacity).toBeLessThanOrEqual(allowed.maxCapacity);
        // Budgets: the embedder's govern.
        for (const [key, limit] of Object.entries(allowed.budgets)) expect(world.options.budgets[key as keyof typeof allowed.budgets]).toBeLessThanOrEqual(limit);
        for (const key of CAPPED_OPTIONS) expect(world.options[key]).toBeLessThanOrEqual(allowed[key]);
        // It runs: steps end, with nothing but Cantrip errors.
        for (let i = 0; i < 6; i++) {
          try {
            world.tick(0.1);
          } catch (error) {
            expect(error instanceof WorldError || error instanceof SpellRuntimeError, String(error)).toBe(true);
          }
        }
        expect(Number.isFinite(world.time)).toBe(true);
        expect(world.pool.capacity).toBeLessThanOrEqual(allowed.maxCapacity);
        let after: WorldSnapshot;
        try {
          after = world.snapshot();
        } catch (error) {
          expect(error).toBeInstanceOf(WorldError);
          return;
        }
        // Within its budgets: what it holds, and no entity with more buffs than a spell can give.
        expect(heldBy(after)).toBeLessThanOrEqual(allowed.maxWorldHeap);
        for (const e of after.entities) expect(e.modifiers.length).toBeLessThanOrEqual(MAX_MODIFIERS);
        expect(new Set(after.entities.map((e) => e.id)).size).toBe(after.entities.length);
        outcomes.ran++;
      }),
      300,
    );
    // Not vacuous: both roads are taken.
    expect(outcomes.refused).toBeGreaterThan(20);
    expect(outcomes.ran).toBeGreaterThan(20);
  }, 300_000);
});
