/**
 * Snapshots keep spells in flight, for random worlds (fast-check): run N
 * ticks straight; then run k ticks, snapshot, JSON.stringify / JSON.parse,
 * restore into a fresh world and run N − k more. From the restore on, the
 * event stream is identical to the straight run's, for every k < N.
 *
 * The worlds: random breeds placement, a random schedule of spawns,
 * despawns, moves, damage and casts of a library of spells that wait — deep
 * in nested calls, holding closures, lists (with cycles), maps keyed by
 * strings and entities, class instances, bound methods (of an instance and
 * of a string), template strings, buffs, spawned entities, the seeded
 * `random()` — and casts whose caster or target dies during the wait; steps
 * by `step()` or `tick(dt)`, and live reloads of the spells while casts of
 * the old code wait; spells loaded as source or as .spb bytes. Breeds
 * carry tick and onEnter / onLeave spells that wait too. Besides every
 * single k, the world is also restored before every step (a restored world
 * snapshots again).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../../runtime/events/events.js';
import { compile } from '../../compiler/compile.js';
import { World } from '../../runtime/world/world.js';
import { writeSpb } from '../../vm/spb.js';
import { checkProperty } from './fuzz-settings.js';

const SIZE = 16;

const SPELLS = `
var casts = 0;
var history = [];
class Ledger {
  init(owner) { this.owner = owner; this.entries = []; }
  add(x) { this.entries.append(x); return len(this.entries); }
}
fun counter(start) { var n = start; fun next() { n += 1; return n; } return next; }
fun deep(depth, target, next, trail) {
  if (depth <= 0) { wait(0.1 + random() * 0.3); return next(); }
  trail.append(depth);
  var r = deep(depth - 1, target, next, trail);
  if (target.alive) damage(target, r % 5);
  return r + depth;
}
spell burn(caster, target) {
  casts += 1;
  var trail = [];
  var r = deep(3, target, counter(casts), trail);
  print \`burn \${r} \${trail} caster \${caster.alive} target \${target.alive}\`;
}
spell ledger(caster, target) {
  var book = Ledger(caster);
  var add = book.add;
  var items = [1, "two", nil, true];
  items.append(items);
  add(items);
  wait(0.2);
  add(target);
  history.append(book);
  wait(0.1);
  print \`ledger \${add(casts)} owner \${book.owner.alive} \${len(items)} \${len(history)}\`;
}
spell tally(caster, target) {
  var m = {"fire": 1};
  m[target] = 2;
  m[caster] = 3;
  var shout = "tally".upper;
  var i = 0;
  while (i < 3) { wait(0.1); m["fire"] += i; i += 1; }
  print \`\${shout()} \${m["fire"]} \${m[target]} \${len(m)} \${target.health}\`;
}
spell doom(caster, target) { wait(0.4); damage(caster, 999); wait(0.2); print "never"; }
spell hit(caster, target) { damage(target, 7); }
spell weaken(caster, target) { buff(target, "speed", -1, 0.5); wait(0.3); print \`speed \${target.speed}\`; }
spell summon(caster, target) {
  wait(0.1);
  var rock = spawn("Rock", caster.x + 1, caster.y);
  wait(0.2);
  if (rock.alive) despawn(rock);
  print \`summoned \${rock.alive}\`;
}
spell stalk(caster, target) {
  var near = nearby(caster, 5);
  var hits = [];
  for (e in near) { fun strike() { if (e.alive) damage(e, 1); return e.alive; } hits.append(strike); }
  wait(0.3);
  var alive = 0;
  for (h in hits) if (h()) alive += 1;
  print \`stalk \${len(hits)} \${alive}\`;
}
class Archer < Ledger {
  init(owner, arrows) { super.init(owner); this.arrows = arrows; }
  fire(t) { wait(0.1); this.arrows -= 1; if (t.alive) damage(t, 2); return super.add(t); }
}
spell volley(caster, target) {
  var archer = Archer(caster, 3);
  var hits = [];
  for (var i = 0; i < 3; i += 1) hits.append(archer.fire(target));
  print \`volley \${hits} \${archer.arrows} \${len(archer.entries)}\`;
}
spell channel(caster, target) {
  var resist = {"fire": 1, "ice": 2, "bolt": 3};
  var seen = [];
  for (k in resist) {
    wait(0.1);
    seen.append(k);
    if (resist.has("ice")) resist.remove("ice");
    resist[caster] = len(seen);
  }
  var fns = [];
  for (n in [1, 2, 3]) { fun get() { return n * 10; } fns.append(get); wait(0.05); }
  var sum = 0;
  for (f in fns) sum += f();
  print \`channel \${seen} \${resist.keys()} \${resist.get("ice", "gone")} \${sum} at \${now()}\`;
}
spell seek(caster, target) {
  var foe = nearest(caster, 8);
  wait(0.2);
  if (foe != nil and foe.alive) { setVelocity(foe, 1, 0); damage(foe, 3); }
  var ring = within(caster.x, caster.y, 6);
  wait(0.1);
  say(caster, \`seek \${len(ring)}\`);
  sound("zap");
}
spell pulse(self) { if (random() < 0.3) { wait(0.2); heal(self, 1); } }
spell greet(self, other) { var seen = {"who": other}; wait(0.2); print \`greet \${seen["who"].alive}\`; }
spell part(self, other) { wait(0.1); print \`part \${other.alive}\`; }
`;

/** A live reload: the same file edited (changed spells; casts in flight go on in the new code where they map, else on the old: World.loadSpells' inFlight 'continue'). */
const SPELLS_EDITED = SPELLS.replace('damage(target, 7)', 'damage(target, 8)')
  .replace('print \`burn ', 'print \`burn (edited) ')
  .replace('wait(0.1); m["fire"] += i;', 'wait(0.15); m["fire"] += 2 * i;');
const SOURCES = [SPELLS, SPELLS_EDITED] as const;

const BREEDS = {
  breeds: [
    { name: 'Mage', health: 30, speed: 2, interest: 4, spells: { tick: 'pulse', onEnter: 'greet', onLeave: 'part' } },
    { name: 'Dummy', health: 40, speed: 1 },
    { name: 'Rock', health: 100 },
  ],
};

const SPELL_NAMES = ['burn', 'ledger', 'tally', 'doom', 'hit', 'weaken', 'summon', 'stalk', 'volley', 'channel', 'seek'] as const;
const BREED_NAMES = ['Mage', 'Dummy', 'Rock'] as const;

type Op =
  | { kind: 'spawn'; breed: (typeof BREED_NAMES)[number]; x: number; y: number }
  | { kind: 'despawn'; pick: number }
  | { kind: 'move'; pick: number; x: number; y: number }
  | { kind: 'damage'; pick: number; amount: number }
  | { kind: 'velocity'; pick: number; vx: number; vy: number }
  | { kind: 'reload'; edited: 0 | 1 }
  | { kind: 'cast'; spell: (typeof SPELL_NAMES)[number]; caster: number; target: number };

const coord = fc.integer({ min: 0, max: SIZE * 2 }).map((n) => n / 2);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('spawn' as const), breed: fc.constantFrom(...BREED_NAMES), x: coord, y: coord }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('despawn' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), x: coord, y: coord }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('reload' as const), edited: fc.constantFrom(0 as const, 1 as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('velocity' as const), pick: fc.nat(), vx: fc.integer({ min: -3, max: 3 }), vy: fc.integer({ min: -3, max: 3 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('damage' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 40 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cast' as const), spell: fc.constantFrom(...SPELL_NAMES), caster: fc.nat(), target: fc.nat() }), weight: 5 },
);

interface Game {
  readonly seed: number;
  readonly partition: 'grid' | 'axis';
  readonly placement: readonly { breed: (typeof BREED_NAMES)[number]; x: number; y: number }[];
  /** ops[t] run just before step t. */
  readonly ops: readonly (readonly Op[])[];
  /** Load the spells as compiled .spb bytes (the snapshot carries them as base64) instead of source. */
  readonly binary: boolean;
  /** clock[t]: null runs step t with step(); a number runs it with tick(dt) (zero or more fixed steps). */
  readonly clock: readonly (number | null)[];
}

const gameArb: fc.Arbitrary<Game> = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  partition: fc.constantFrom('grid' as const, 'axis' as const),
  binary: fc.boolean(),
  placement: fc.array(fc.record({ breed: fc.constantFrom(...BREED_NAMES), x: coord, y: coord }), { minLength: 2, maxLength: 6 }),
  ops: fc.array(fc.array(opArb, { maxLength: 3 }), { minLength: 4, maxLength: 18 }),
  clock: fc.array(fc.constantFrom(null, null, 0, 0.04, 0.1, 0.17, 0.25), { minLength: 18, maxLength: 18 }),
});

/** Runs a game, restoring from a JSON snapshot before each step in `restoreAt`; `events` holds those since the last restore. */
class Run {
  world: World;
  readonly ids: number[] = [];
  events: WorldEvent[] = [];
  waitingAtSnapshots = 0;

  constructor(readonly game: Game) {
    this.world = new World({ width: SIZE, height: SIZE, seed: game.seed, partition: game.partition });
    this.load(SPELLS);
    this.world.loadBreeds(BREEDS);
    this.world.on((e) => this.events.push(e));
    for (const p of game.placement) this.ids.push(this.world.spawn(p.breed, p.x, p.y));
    this.world.flush();
  }

  private load(source: string): void {
    if (!this.game.binary) {
      this.world.loadSpells(source, 'continuity.spell');
      return;
    }
    const { module } = compile(source, { sourceName: 'continuity.spell', hosts: this.world.hosts });
    this.world.loadModule(writeSpb(module!), 'continuity.spell');
  }

  /** A living entity chosen by `pick`, or null when none is alive. */
  private living(pick: number): number | null {
    const alive = this.ids.filter((id) => this.world.isAlive(id));
    return alive.length === 0 ? null : alive[pick % alive.length]!;
  }

  private apply(op: Op): void {
    const w = this.world;
    switch (op.kind) {
      case 'spawn':
        if (w.entities().length < 24) this.ids.push(w.spawn(op.breed, op.x, op.y));
        return;
      case 'despawn': {
        const id = this.living(op.pick);
        if (id !== null) w.despawn(id);
        return;
      }
      case 'move': {
        const id = this.living(op.pick);
        if (id !== null) w.move(id, op.x, op.y);
        return;
      }
      case 'damage': {
        const id = this.living(op.pick);
        if (id !== null) w.setProperty(id, 'health', Math.max(0, (w.property(id, 'health') as number) - op.amount));
        return;
      }
      case 'reload':
        this.load(SOURCES[op.edited]);
        return;
      case 'velocity': {
        const id = this.living(op.pick);
        if (id !== null) w.setVelocity(id, op.vx, op.vy);
        return;
      }
      case 'cast': {
        const caster = this.living(op.caster);
        const target = this.living(op.target);
        if (caster !== null) w.cast(op.spell, caster, target);
        return;
      }
    }
  }

  play(restoreAt: ReadonlySet<number>): WorldEvent[] {
    for (let t = 0; t < this.game.ops.length; t++) {
      if (restoreAt.has(t)) {
        this.waitingAtSnapshots += this.world.waitingCasts;
        this.world = World.restore(JSON.parse(JSON.stringify(this.world.snapshot())));
        this.events = [];
        this.world.on((e) => this.events.push(e));
      }
      this.stepAt(t);
    }
    this.world.flush();
    return this.events;
  }

  /** Step t: its operations, then one world step (or a tick of real time). */
  stepAt(t: number): void {
    for (const op of this.game.ops[t]!) this.apply(op);
    const dt = this.game.clock[t];
    if (dt === null || dt === undefined) this.world.step();
    else this.world.tick(dt);
  }
}

/** The straight run's events from the start of step k on (what a restore before step k must reproduce). */
function straightFrom(game: Game): WorldEvent[][] {
  const run = new Run(game);
  const marks: number[] = [];
  for (let t = 0; t < game.ops.length; t++) {
    marks.push(run.events.length);
    run.stepAt(t);
  }
  run.world.flush();
  return marks.map((m) => run.events.slice(m));
}

let snapshotsInFlight = 0;
let snapshots = 0;

describe('snapshot + JSON + restore of random worlds with random casts in flight', () => {
  it('continues with the very same events as the straight run, for every k (and after restoring before every step)', () => {
    for (const edit of ['damage(target, 8)', '(edited)', '2 * i']) expect(SPELLS_EDITED).toContain(edit);
    const property = fc.property(gameArb, (game) => {
      const straight = straightFrom(game);
      const n = game.ops.length;
      for (let k = 1; k < n; k++) {
        const run = new Run(game);
        const events = run.play(new Set([k]));
        snapshots++;
        if (run.waitingAtSnapshots > 0) snapshotsInFlight++;
        expect(events, `restored before step ${k} of ${n}`).toEqual(straight[k]);
      }
      // A restored world snapshots and restores again: restore before every step.
      const chain = new Run(game);
      const every = new Set(Array.from({ length: n - 1 }, (_, i) => i + 1));
      expect(chain.play(every), 'restored before every step').toEqual(straight[n - 1]);
      expect(chain.world.snapshot().spells.every((l) => (l.spb !== undefined) === game.binary)).toBe(true);
    });
    checkProperty('snapshot-continuity', property, 20);
    // The property is about casts in flight: most snapshots must catch some.
    expect(snapshotsInFlight).toBeGreaterThan(snapshots / 2);
  });
});
