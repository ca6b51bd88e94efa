/**
 * Edit and continue (World.loadSpells' inFlight: 'continue'): a cast waiting
 * in code a reload replaces resumes in the new code at the corresponding wait
 * (runtime/world/cast-reload.ts), and gives exactly what a fresh cast of the
 * new code would from that wait with those locals — checked over generated
 * edits on both tiers, with and without a save and restore first.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Tier } from '../../vm/vm.js';
import type { WorldEvent } from '../events/events.js';
import { World } from './world.js';

// ------------------------------------------------------------------ a small straight-line spell language

type Expr = { readonly num: number } | { readonly name: string } | { readonly op: '+' | '*'; readonly a: Expr; readonly b: Expr };
type Stmt =
  | { readonly decl: string; readonly expr: Expr }
  | { readonly assign: string; readonly expr: Expr }
  | { readonly print: string; readonly expr: Expr }
  | { readonly wait: true };

function exprText(e: Expr): string {
  if ('num' in e) return String(e.num);
  if ('name' in e) return e.name;
  return `(${exprText(e.a)} ${e.op} ${exprText(e.b)})`;
}

function stmtText(s: Stmt): string {
  if ('decl' in s) return `var ${s.decl} = ${exprText(s.expr)};`;
  if ('assign' in s) return `${s.assign} = ${exprText(s.expr)};`;
  if ('print' in s) return `print "${s.print} " + str(${exprText(s.expr)});`;
  return 'wait(0.1);';
}

function spellText(name: string, body: readonly Stmt[]): string {
  return `spell ${name}(self, t) {\n${body.map((s) => `  ${stmtText(s)}`).join('\n')}\n}\n`;
}

/** The values of the locals declared before the k-th wait (what the cast holds while it waits there). */
function localsAtWait(body: readonly Stmt[], k: number): Map<string, number> {
  const env = new Map<string, number>();
  const value = (e: Expr): number => ('num' in e ? e.num : 'name' in e ? env.get(e.name)! : e.op === '+' ? value(e.a) + value(e.b) : value(e.a) * value(e.b));
  let waits = 0;
  for (const s of body) {
    if ('wait' in s) {
      if (waits++ === k) return env;
    } else if ('decl' in s) env.set(s.decl, value(s.expr));
    else if ('assign' in s) env.set(s.assign, value(s.expr));
  }
  throw new Error('no such wait');
}

function waitIndex(body: readonly Stmt[], k: number): number {
  let waits = 0;
  for (let i = 0; i < body.length; i++) if ('wait' in body[i]! && waits++ === k) return i;
  throw new Error('no such wait');
}

/** A fresh spell that starts where `body` stands after its k-th wait, with `carried` as its locals (nil where it has none). */
function resumedFrom(body: readonly Stmt[], k: number, carried: ReadonlyMap<string, number>): string {
  const at = waitIndex(body, k);
  const declared = body.slice(0, at).flatMap((s) => ('decl' in s ? [s.decl] : []));
  const head = declared.map((n) => `  var ${n} = ${carried.has(n) ? String(carried.get(n)) : 'nil'};`);
  return `spell ref(self, t) {\n${head.join('\n')}\n${body.slice(at + 1).map((s) => `  ${stmtText(s)}`).join('\n')}\n}\n`;
}

// ------------------------------------------------------------------ generators

const NAMES = ['a', 'b', 'c', 'd'];

/** A body: locals declared first (each used after it exists), then assignments, prints and waits — at least one wait. */
const bodyArb: fc.Arbitrary<Stmt[]> = fc
  .record({
    decls: fc.integer({ min: 1, max: 4 }),
    tail: fc.array(fc.record({ kind: fc.constantFrom('assign', 'print', 'wait', 'wait'), target: fc.nat(3), c: fc.integer({ min: -9, max: 9 }), use: fc.nat(3) }), { minLength: 2, maxLength: 9 }),
    firstWait: fc.nat(3),
  })
  .map(({ decls, tail, firstWait }) => {
    const names = NAMES.slice(0, decls);
    const body: Stmt[] = names.map((n, i) => ({ decl: n, expr: i === 0 ? { num: 3 } : { op: '+', a: { name: names[i - 1]! }, b: { num: i } } }));
    body.splice(Math.min(firstWait, body.length), 0, { wait: true });
    for (const t of tail) {
      const target = names[t.target % names.length]!;
      const use: Expr = { op: '+', a: { name: names[t.use % names.length]! }, b: { num: t.c } };
      if (t.kind === 'wait') body.push({ wait: true });
      else if (t.kind === 'assign') body.push({ assign: target, expr: use });
      else body.push({ print: `p${body.length}`, expr: { op: '*', a: use, b: { num: 2 } } });
    }
    // A wait placed among the declarations must not come before a use of a later one: the body uses only what is declared before it.
    return body;
  });

type Edit =
  | { readonly kind: 'rename'; readonly which: number }
  | { readonly kind: 'before' | 'after'; readonly stmt: number }
  | { readonly kind: 'add-wait'; readonly at: number }
  | { readonly kind: 'constant'; readonly which: number; readonly to: number }
  | { readonly kind: 'delete' };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('rename' as const), which: fc.nat(3) }),
  fc.record({ kind: fc.constantFrom('before' as const, 'after' as const), stmt: fc.nat(2) }),
  fc.record({ kind: fc.constant('add-wait' as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('constant' as const), which: fc.nat(20), to: fc.integer({ min: 10, max: 99 }) }),
  fc.record({ kind: fc.constant('delete' as const) }),
);

function renameIn(e: Expr, from: string, to: string): Expr {
  if ('num' in e) return e;
  if ('name' in e) return e.name === from ? { name: to } : e;
  return { op: e.op, a: renameIn(e.a, from, to), b: renameIn(e.b, from, to) };
}

/** Number constants of a body in order, and a body with the n-th one replaced. */
function withConstant(body: readonly Stmt[], which: number, to: number): Stmt[] {
  let n = 0;
  const count = body.reduce((k, s) => k + ('expr' in s ? constants(s.expr) : 0), 0);
  const target = count === 0 ? -1 : which % count;
  const replace = (e: Expr): Expr => {
    if ('num' in e) return n++ === target ? { num: to } : e;
    if ('name' in e) return e;
    return { op: e.op, a: replace(e.a), b: replace(e.b) };
  };
  return body.map((s) => ('expr' in s ? { ...s, expr: replace(s.expr) } : s));
}

function constants(e: Expr): number {
  return 'num' in e ? 1 : 'name' in e ? 0 : constants(e.a) + constants(e.b);
}

/** The edited body (null: the spell is deleted). `k` is the wait the cast stands at. */
function edited(body: readonly Stmt[], k: number, edit: Edit): Stmt[] | null {
  const at = waitIndex(body, k);
  const declared = body.flatMap((s) => ('decl' in s ? [s.decl] : []));
  switch (edit.kind) {
    case 'rename': {
      const from = declared[edit.which % declared.length]!;
      const to = `${from}Renamed`;
      return body.map((s) => {
        if ('decl' in s) return { decl: s.decl === from ? to : s.decl, expr: renameIn(s.expr, from, to) };
        if ('assign' in s) return { assign: s.assign === from ? to : s.assign, expr: renameIn(s.expr, from, to) };
        if ('print' in s) return { print: s.print, expr: renameIn(s.expr, from, to) };
        return s;
      });
    }
    case 'before':
    case 'after': {
      // Only names declared before the insertion point, so the new code stays well-formed.
      const where = edit.kind === 'before' ? at : at + 1;
      const known = body.slice(0, where).flatMap((s) => ('decl' in s ? [s.decl] : []));
      const added: Stmt[] = [
        { print: 'added', expr: { num: 7 } },
        known.length > 0 ? { assign: known[0]!, expr: { op: '+', a: { name: known[0]! }, b: { num: 100 } } } : { print: 'added2', expr: { num: 8 } },
        { decl: 'fresh', expr: { num: 5 } },
      ];
      return [...body.slice(0, where), added[edit.stmt % added.length]!, ...body.slice(where)];
    }
    case 'add-wait': {
      const where = edit.at % (body.length + 1);
      return [...body.slice(0, where), { wait: true }, ...body.slice(where)];
    }
    case 'constant':
      return withConstant(body, edit.which, edit.to);
    case 'delete':
      return null;
  }
}

// ------------------------------------------------------------------ running

const BREEDS = { breeds: [{ name: 'Mage', health: 30 }] };

interface Outcome {
  readonly prints: string[];
  readonly errors: string[];
}

function newWorld(tier: Tier): World {
  const world = new World({ width: 50, height: 50, step: 0.1, tier });
  world.loadBreeds(BREEDS);
  return world;
}

function watch(world: World): Outcome {
  const out: Outcome = { prints: [], errors: [] };
  world.on((e: WorldEvent) => {
    if (e.type === 'print') out.prints.push(e.text);
    if (e.type === 'cast-error') out.errors.push(e.message);
  });
  return out;
}

/** A fresh cast of `source`'s `ref` run to its end. */
function runFresh(source: string, tier: Tier): Outcome {
  const world = newWorld(tier);
  world.loadSpells(source, 'ref.spell');
  const out = watch(world);
  world.cast('ref', world.spawn('Mage', 1, 1));
  for (let i = 0; i < 40 && world.waitingCasts > 0; i++) world.step();
  world.flush();
  return out;
}

describe('edit and continue', () => {
  it('a cast resumed in new code does what a fresh cast of the new code does from that wait with those locals', () => {
    fc.assert(
      fc.property(bodyArb, fc.nat(8), editArb, fc.constantFrom<Tier>('interpreter', 'compiled'), fc.boolean(), (body, kSeed, edit, tier, restore) => {
        const waits = body.filter((s) => 'wait' in s).length;
        const k = kSeed % waits;
        const after = edited(body, k, edit);
        let world = newWorld(tier);
        world.loadSpells(spellText('s', body), 'game.spell');
        const mage = world.spawn('Mage', 1, 1);
        expect(world.cast('s', mage).state).toBe('suspended');
        for (let i = 0; i < k; i++) world.step();
        if (restore) world = World.restore(JSON.parse(JSON.stringify(world.snapshot())), { tier });
        world.flush();
        const out = watch(world);
        world.loadSpells(after === null ? 'spell other(self, t) { }' : spellText('s', after), 'game.spell');
        const report = world.lastLoad!;
        for (let i = 0; i < 40 && world.waitingCasts > 0; i++) world.step();
        world.flush();
        const carried = localsAtWait(body, k);
        if (after === null) {
          // No counterpart: the cast keeps its old code, and the reload says why.
          expect(report.continued).toEqual([]);
          expect(report.kept.map((c) => c.reason)).toEqual(["the new code has no spell 's'"]);
          expect(out).toEqual(runFresh(resumedFrom(body, k, carried), tier));
        } else {
          expect(report.kept).toEqual([]);
          expect(report.continued).toEqual([`${mage}:1`]);
          expect(out).toEqual(runFresh(resumedFrom(after, k, carried), tier));
        }
      }),
      { numRuns: 40 },
    );
  });
});

/** A world with `source` loaded as game.spell, a mage and a troll, and what it prints and reports. */
function scene(source: string, tier: Tier = 'auto') {
  const world = newWorld(tier);
  world.loadSpells(source, 'game.spell');
  const mage = world.spawn('Mage', 1, 1);
  const troll = world.spawn('Mage', 3, 1);
  const out = watch(world);
  const cancelled: string[] = [];
  world.on((e) => {
    if (e.type === 'cast-cancelled') cancelled.push(`${e.spell}: ${e.message}`);
  });
  return { world, mage, troll, out, cancelled };
}

const run = (world: World, steps: number) => {
  for (let i = 0; i < steps; i++) world.step();
  world.flush();
};

describe('edit and continue, case by case', () => {
  it('maps every frame of a cast waiting deep in calls, and a closure it holds, to their new versions', () => {
    const before = `
fun pulse(v) {
  var seen = v;
  wait(0.1);
  return seen + 1;
}
spell channel(self, t) {
  var hits = [];
  fun note(v) { hits.append(v); }
  var total = 0;
  while (true) {
    total = pulse(total);
    note(total);
    print "old " + str(total) + " " + str(len(hits));
  }
}
`;
    const after = before.replace('return seen + 1;', 'print "pulse " + str(seen);\n  return seen + 10;').replace('hits.append(v);', 'hits.append(v); hits.append(v);').replace('"old "', '"new "');
    const { world, mage, out } = scene(before);
    const { id } = world.cast('channel', mage);
    run(world, 2);
    expect(world.casts()[0]).toMatchObject({ id, function: 'pulse', line: 4 });
    world.loadSpells(after, 'game.spell');
    expect(world.lastLoad).toMatchObject({ continued: [id], kept: [] });
    run(world, 2);
    expect(out.prints).toEqual(['old 1 1', 'old 2 2', 'pulse 2', 'new 12 4', 'pulse 12', 'new 22 6']);
    expect(world.casts()[0]).toMatchObject({ id, function: 'pulse', line: 4, oldCode: false });
  });

  it('keeps the old code, with the reason, where there is no unambiguous counterpart', () => {
    const before = 'spell a(self, t) { wait(0.1); wait(0.1); print "a done"; }\nspell b(self, t) { var n = 1; print str(n) + str(wait(1)); }\nspell c(self, t) { wait(1); print "c done"; }\n';
    const after = 'spell a(self, t) { wait(0.1); print "a new"; }\nspell b(self, t) { var n = 1; print str(wait(1)); }\nspell c(self, t, extra) { wait(1); print "c new"; }\n';
    const { world, mage, out } = scene(before);
    const ids = ['a', 'b', 'c'].map((spell) => world.cast(spell, mage).id);
    run(world, 1);
    world.loadSpells(after, 'game.spell');
    expect(world.lastLoad!.continued).toEqual([]);
    expect(world.lastLoad!.kept.map((k) => [k.id, k.reason])).toEqual([
      [ids[0], "the new spell 'a' has no 2nd call of wait"],
      [ids[1], "it waits part-way through an expression in spell 'b' (line 2) whose values the new code cannot take up"],
      [ids[2], "spell 'c' takes 3 parameters in the new code, not 2"],
    ]);
    expect(world.casts().every((c) => c.oldCode)).toBe(true);
    run(world, 12);
    expect(out.prints.sort()).toEqual(['1nil', 'a done', 'c done']);
  });

  it('refuses only the casts that hold a function the new code lacks; what only the old globals held is let go', () => {
    const before = 'class Pet { speak() { return "old"; } }\nvar pet = Pet();\nspell a(self, t) { var p = Pet(); wait(0.1); print p.speak(); }\nspell b(self, t) { wait(0.1); print "b moved"; }\n';
    const after = 'class Pet { talk() { return "new"; } }\nvar pet = Pet();\nspell a(self, t) { var p = Pet(); wait(0.1); print p.talk(); }\nspell b(self, t) { wait(0.1); print "b new"; }\n';
    const { world, mage, out } = scene(before);
    const a = world.cast('a', mage).id;
    const b = world.cast('b', mage).id;
    world.loadSpells(after, 'game.spell');
    expect(world.lastLoad!.continued).toEqual([b]);
    expect(world.lastLoad!.kept).toEqual([{ id: a, spell: 'a', caster: mage, reason: "it holds a function value that cannot move: the new code has no function 'speak'" }]);
    run(world, 2);
    expect(out.prints.sort()).toEqual(['b new', 'old']);
  });

  it("'restart' cancels each cast and casts it again with the same caster, target, arguments and id", () => {
    const before = 'spell zap(c, t, power) { wait(1); damage(t, power); }\n';
    const after = 'spell zap(c, t, power) { damage(t, power * 2); wait(1); damage(t, power); }\n';
    const { world, mage, troll, cancelled } = scene(before);
    const { id } = world.cast('zap', mage, troll, [3]);
    run(world, 2);
    world.loadSpells(after, 'game.spell', { inFlight: 'restart' });
    expect(world.lastLoad).toMatchObject({ inFlight: 'restart', restarted: [id], continued: [], kept: [] });
    world.flush();
    expect(cancelled).toEqual(['zap: Restarted by a reload.']);
    expect(world.entity(troll)!.health).toBe(24);
    expect(world.casts().map((c) => [c.id, c.caster, c.target])).toEqual([[id, mage, troll]]);
    run(world, 10);
    expect(world.entity(troll)!.health).toBe(21);
    // A spell the new code lacks cannot be cast again: it keeps its code.
    world.cast('zap', mage, troll, [1]);
    world.loadSpells('spell other(c, t) { }', 'game.spell', { inFlight: 'restart' });
    expect(world.lastLoad!.kept.map((k) => k.reason)).toEqual(["the new code has no spell 'zap'"]);
  });

  it("'keep' leaves every cast on its old code; a paused cast is kept with its reason", async () => {
    const { Debugger } = await import('../../vm/debugger.js');
    const source = 'spell a(self, t) {\n  wait(0.1);\n  print "a";\n}\n';
    const { world, mage } = scene(source, 'interpreter');
    world.cast('a', mage);
    world.loadSpells(source.replace('"a"', '"b"'), 'game.spell', { inFlight: 'keep' });
    expect(world.lastLoad).toMatchObject({ continued: [], kept: [] });
    expect(world.casts()[0]!.oldCode).toBe(true);
    const dbg = new Debugger(world.spellVm('a')!);
    dbg.attach();
    dbg.setBreakpoints([2]);
    const paused = world.cast('a', mage);
    expect(paused.state).toBe('paused');
    world.loadSpells(source, 'game.spell');
    expect(world.lastLoad!.kept).toEqual([{ id: paused.id, spell: 'a', caster: mage, reason: 'it is paused in a debugger' }]);
    // The cast kept by 'keep' came along this time (older code of the same source), the paused one did not.
    expect(world.lastLoad!.continued).toHaveLength(1);
  });
});
