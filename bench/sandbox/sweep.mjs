#!/usr/bin/env node
/**
 * The default-budget sweep of docs/security.md: issue 9's repros, each run at
 * the DEFAULT budgets in its own child process (a 30 s limit, a 1.5 GB heap),
 * reporting wall time and the heap left in use. Run it against any build to
 * compare before and after:
 *
 *   node bench/sandbox/sweep.mjs [dist-dir] [--timeout 30] [--only <part of a case name>]
 *
 * Wall times here are figures for the docs, measured on whatever machine runs
 * it; nothing asserts on them (the tests assert on fuel and heap accounting).
 */

import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);
const repo = path.resolve(path.dirname(here), '../..');

const big = (log2) => `var s = "x"; for (var i = 0; i < ${log2}; i = i + 1) s = s + s;`;
const methods = (n) => Array.from({ length: n }, (_, i) => `m${i}() {}`).join(' ');
const locals = (n) => Array.from({ length: n }, (_, i) => `a${i}`);

/** What the verifier says of a crafted module: 'verified', or why it refused it (the first 80 characters). */
function verdict(verifyModule, module, hosts) {
  try {
    verifyModule(module, hosts);
    return 'verified';
  } catch (e) {
    return `refused: ${e.message.slice(0, 80)}`;
  }
}

/** Each case: what it is, and a function of the loaded dist that runs it. */
const CASES = {
  '1 INHERIT of 2,000 methods in a loop (world cast)': async (d) => worldCast(d, `class A { ${methods(2000)} } spell go(self) { while (true) { class B < A {} } }`),
  '2 closure over 253 upvalues in a loop (world cast)': async (d) => {
    const n = locals(253);
    return worldCast(d, `spell go(self) { ${n.map((a) => `var ${a} = 1;`).join(' ')} while (true) { fun g() { return ${n.join(' + ')}; } } }`);
  },
  '2 the same closures kept in a list (world cast)': async (d) => {
    const n = locals(253);
    return worldCast(d, `var keep = []; spell go(self) { ${n.map((a) => `var ${a} = 1;`).join(' ')} while (true) { fun g() { return ${n.join(' + ')}; } keep.append(g); } }`);
  },
  '4 verifyModule: 200,000 CLOSUREs of a 256-upvalue function': async (d) => {
    const { compile } = await d('compiler/index.js');
    const { verifyModule } = await d('vm/verifier.js');
    const { WORLD_HOST_FUNCTIONS } = await d('runtime/host/host-api.js');
    const { Op } = await d('vm/opcodes.js');
    const { module } = compile('fun g() { return 1; }', { sourceName: 'v' });
    const g = module.functions.findIndex((f) => f.name === 'g');
    module.functions[g] = { ...module.functions[g], upvalues: Array.from({ length: 256 }, () => ({ isLocal: true, index: 0 })) };
    const code = [];
    for (let i = 0; i < 200_000; i++) code.push(Op.CLOSURE, g, Op.POP);
    code.push(Op.NIL, Op.RETURN);
    module.functions[0] = { ...module.functions[0], code: Int32Array.from(code), lines: new Int32Array(code.length), maxStack: 4 };
    return verdict(verifyModule, module, WORLD_HOST_FUNCTIONS);
  },
  '4 verifyModule: an import with 300,000 arities, 60,000 CALL_HOSTs': async (d) => {
    const { compile } = await d('compiler/index.js');
    const { verifyModule } = await d('vm/verifier.js');
    const { WORLD_HOST_FUNCTIONS } = await d('runtime/host/host-api.js');
    const { Op } = await d('vm/opcodes.js');
    const { module } = compile('spell go(self) { nearest(self, 1, "a"); }', { sourceName: 'v', hosts: WORLD_HOST_FUNCTIONS });
    const nearest = module.hostImports.findIndex((h) => h.name === 'nearest');
    module.hostImports[nearest] = { ...module.hostImports[nearest], arities: [...new Array(299_999).fill(2), 3] };
    const code = [];
    for (let i = 0; i < 60_000; i++) code.push(Op.NIL, Op.NIL, Op.NIL, Op.CALL_HOST, nearest, 3, Op.POP);
    code.push(Op.NIL, Op.RETURN);
    module.functions[0] = { ...module.functions[0], code: Int32Array.from(code), lines: new Int32Array(code.length), maxStack: 4 };
    return verdict(verifyModule, module, WORLD_HOST_FUNCTIONS);
  },
  '5 disassemble: a 1,000,000-character constant used 200,000 times': async (d) => {
    const { compile } = await d('compiler/index.js');
    const { disassemble } = await d('vm/disassembler.js');
    const { module } = compile('var s = "a";', { sourceName: 'v' });
    const index = module.constants.push('q'.repeat(1_000_000)) - 1;
    const code = [];
    for (let i = 0; i < 200_000; i++) code.push(0, index, 4);
    code.push(1, 40);
    module.functions[0] = { ...module.functions[0], code: Int32Array.from(code), lines: new Int32Array(code.length) };
    return `${(disassemble(module).length / 1e6).toFixed(1)} M characters of listing`;
  },
  '6 nearest(caster, 1000000) in a loop, 1000×1000 world, 2 entities': async (d) =>
    worldCast(d, 'spell go(self) { while (true) nearest(self, 1000000); }', { width: 1000, height: 1000 }, 2),
  '6 within(0, 0, 1000000) in a loop, 1000×1000 world': async (d) =>
    worldCast(d, 'spell go(self) { while (true) within(0, 0, 1000000); }', { width: 1000, height: 1000 }, 2),
  '7 1,024 tick casts waiting with a 60,000-element list, 4 steps': async (d) => {
    const zeros = new Array(60_000).fill('0').join(',');
    const world = await makeWorld(d, `spell hold(self, dt) { var l = [${zeros}]; wait(600); }`, { tick: 'hold' }, {}, 1024);
    for (let i = 0; i < 4; i++) world.step();
    return `${world.waitingCasts} casts waiting`;
  },
  '8 spawn(s) with a 4 MB s as a tick spell on 256 entities, 1 step (events kept)': async (d) => {
    const world = await makeWorld(d, `${big(22)} spell bad(self, dt) { spawn(s, 0, 0); }`, { tick: 'bad' }, {}, 256);
    const kept = [];
    world.on((e) => kept.push(e));
    world.step();
    globalThis.keep = kept;
    return `${kept.filter((e) => e.type === 'cast-error').length} cast-errors, longest message ${Math.max(...kept.map((e) => e.message?.length ?? 0))} chars`;
  },
  '9 print s (4 M characters) in a loop (world cast; text delivered)': async (d) => {
    let chars = 0;
    const r = await worldCast(d, `${big(22)} spell go(self) { while (true) print s; }`, {}, 1, (e) => {
      if (e.type === 'print') chars += e.text.length;
    });
    return `${r}; ${(chars / 1e6).toFixed(0)} M characters delivered`;
  },
  '10 a 4 MB string set on 1,024 entities, then JSON.stringify(snapshot)': async (d) => {
    const world = await makeWorld(d, `${big(22)} spell tag(self, dt) { self.note = s; }`, { tick: 'tag' }, {}, 1024);
    world.step();
    try {
      return `snapshot JSON of ${(JSON.stringify(world.snapshot()).length / 1e6).toFixed(0)} M characters`;
    } catch (e) {
      return `${e.constructor.name}: ${e.message.slice(0, 90)}`;
    }
  },
  '+ a new class per iteration with 64 fields (world cast)': async (d) =>
    worldCast(d, `spell go(self) { while (true) { class C {} var o = C(); ${Array.from({ length: 64 }, (_, i) => `o.f${i} = 1;`).join(' ')} } }`),
  '+ one cast spawns 1,000 watchers with onEnter, then 1 step': async (d) => {
    const world = await makeWorld(d, 'spell many(self) { for (var i = 0; i < 1000; i = i + 1) spawn("W", 50 + i % 10, 50 + i / 100); } spell greet(self, other) { }', {}, { capacity: 2048 }, 1, [
      { name: 'W', interest: 20, spells: { onEnter: 'greet' } },
    ]);
    world.cast('many', world.entities()[0].id);
    world.step();
    return `${world.entities().length} entities`;
  },
};

async function makeWorld(d, source, spells, options = {}, count = 1, extraBreeds = []) {
  const { World } = await d('runtime/world/world.js');
  const world = new World({ width: 100, height: 100, capacity: Math.max(count + 8, 64), ...options });
  world.loadSpells(source, 'sweep.spell');
  world.loadBreeds({ breeds: [{ name: 'Imp', spells }, ...extraBreeds] });
  for (let i = 0; i < count; i++) world.spawn('Imp', (i * 7) % (options.width ?? 100), Math.floor(i / 14) % (options.height ?? 100));
  return world;
}

async function worldCast(d, source, options = {}, count = 1, listener = null) {
  const world = await makeWorld(d, source, {}, options, count);
  if (count === 2) world.spawn('Imp', (options.width ?? 100) - 0.5, (options.height ?? 100) - 0.5);
  if (listener) world.on(listener);
  const result = world.cast('go', world.entities()[0].id);
  world.flush();
  globalThis.keep = world;
  return result.error ? `ended: ${result.error.message.slice(0, 70)}` : result.state;
}

async function child(dist, name) {
  const d = (p) => import(pathToFileURL(path.join(dist, p)).href);
  const started = performance.now();
  let note;
  try {
    note = await CASES[name](d);
  } catch (e) {
    note = `threw ${e?.constructor?.name}: ${String(e?.message).slice(0, 80)}`;
  }
  const ms = performance.now() - started;
  globalThis.gc?.();
  process.stdout.write(JSON.stringify({ ms, heapMB: process.memoryUsage().heapUsed / 1e6, note }));
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], args[2]);
  const dist = path.resolve(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? path.join(repo, 'dist'));
  const t = args.indexOf('--timeout');
  const timeout = (t >= 0 ? Number(args[t + 1]) : 30) * 1000;
  console.log(`| case | time | heap in use after | outcome |\n| --- | ---: | ---: | --- |`);
  const o = args.indexOf('--only');
  const only = o >= 0 ? args[o + 1] : null;
  for (const name of Object.keys(CASES).filter((n) => only === null || n.includes(only))) {
    const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=1536', here, '--child', dist, name], { timeout, encoding: 'utf8' });
    let row;
    if (r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGTERM') row = [`> ${timeout / 1000} s`, '—', 'still running: stopped'];
    else if (r.status !== 0) row = ['—', '—', `crashed (exit ${r.status ?? r.signal}): ${/heap out of memory/.test(r.stderr) ? 'JavaScript heap out of memory' : r.stderr.split('\n').find((l) => l.trim()) ?? ''}`];
    else {
      const out = JSON.parse(r.stdout);
      row = [`${(out.ms / 1000).toFixed(2)} s`, `${out.heapMB.toFixed(0)} MB`, out.note];
    }
    console.log(`| ${name} | ${row.join(' | ')} |`);
  }
}

main();
