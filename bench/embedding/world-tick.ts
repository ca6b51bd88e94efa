/**
 * Benchmark 2: a world step where every entity runs the same small script
 * behaviour — the `drift` random walk of bench/spatial, which calls back into
 * the host (random(), and one time in five setVelocity()):
 *
 *   drift(self, dt):  if random() < 0.2 then setVelocity(self, random()*4-2, random()*4-2)
 *
 * then the host moves every entity by its velocity. Contenders:
 *
 *   - Cantrip World: a real World stepping breeds with a `tick` spell (no
 *     interest range, so AOI has nothing to do): tick casts, movement with
 *     bouncing, the grid index, events — everything a game gets;
 *   - plain JS through the World API: the same World, breeds and entities,
 *     but the breed has no tick spell: the game calls `drift` as a plain JS
 *     function per entity each step (world.random(), world.setVelocity(id, …)),
 *     then world.step() — so the only difference from the row above is who
 *     runs the behaviour. Both draw from the world's generator in the same
 *     order, so the two worlds end with identical positions (checked);
 *   - Cantrip VM: the same loop as the peers — the host runs a castLoop per
 *     entity, random/setVelocity are host functions on Float64Arrays;
 *   - fengari and wasmoon (raw C API): a Lua function called per entity;
 *   - QuickJS: a JS function called per entity through handles;
 *   - plain JS: a JS function called per entity (the floor).
 *
 * The "same loop" contenders draw from the same seeded source in the same
 * order, so they must end with identical positions: a checksum compares them.
 */

import fengari, { type LuaState } from 'fengari';
import { compile } from '../../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import type { HostFunction } from '../../vm/host.js';
import type { Value } from '../../vm/value.js';
import { VM } from '../../vm/vm.js';
import { World } from '../../runtime/world/world.js';
import { newQuickJsContext } from '../lang/engines/js.js';
import { newFengariState, newWasmoonEngine } from '../lang/engines/lua.js';
import { seededRandom } from '../spatial/table.js';

export const DRIFT_SPELL = 'spell drift(self, dt) { if (random() < 0.2) setVelocity(self, random() * 4 - 2, random() * 4 - 2); }';
const DRIFT_LUA = 'function drift(self, dt) if random() < 0.2 then setVelocity(self, random() * 4 - 2, random() * 4 - 2) end end';
const DRIFT_JS = '(self, dt) => { if (random() < 0.2) setVelocity(self, random() * 4 - 2, random() * 4 - 2); }';

const SIZE = 300;
const DT = 0.1;

export interface TickContender {
  readonly engine: string;
  /** Run one world step. */
  step(): void;
  /** Sum of positions (null where the contender's world is not the shared one). */
  checksum(): number | null;
  /** Which contenders compute the same world and so must agree on the checksum: the host loop's, or the World's. */
  readonly family?: 'host loop' | 'World';
  dispose(): void;
}

/** Entities' state for the "same loop" contenders: positions and velocities the host owns, and its random source. */
class HostWorld {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  readonly random: () => number;

  constructor(readonly n: number) {
    const place = seededRandom(11);
    this.x = new Float64Array(n).map(() => place() * SIZE);
    this.y = new Float64Array(n).map(() => place() * SIZE);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    this.random = seededRandom(7);
  }

  setVelocity(e: number, vx: number, vy: number): void {
    this.vx[e] = vx;
    this.vy[e] = vy;
  }

  move(): void {
    const { x, y, vx, vy } = this;
    for (let i = 0; i < this.n; i++) {
      x[i] += vx[i]! * DT;
      y[i] += vy[i]! * DT;
    }
  }

  checksum(): number {
    let sum = 0;
    for (let i = 0; i < this.n; i++) sum += this.x[i]! + this.y[i]!;
    return sum;
  }
}

/**
 * A spell that keeps a cast waiting for as long as its world runs, waking every 2 s (20 steps) to wait
 * again: an aura's or a journey's shape. Loaded with `drift` in one source (one VM), as a game keeps its
 * spells: issue 34's cliff was in that shape (every tick cast refused by the fiber budget of the VM the
 * waiting casts filled).
 */
export const LINGER_SPELL = 'spell linger(self, target) { while (true) { wait(2); } }';
/** Steps between two wakes of a `linger` cast (wait(2) at the world's 0.1 s step): time whole cycles of it. */
export const LINGER_PERIOD_STEPS = 20;

/**
 * The scenario's World: `n` Motes placed by the same seeded source, with `drift` as their tick spell or none,
 * and `linger` (one source with `drift`) cast on each when `lingering`. Returns the world and the ids in spawn (= tick) order.
 */
function driftWorld(n: number, WorldClass: typeof World, tickSpell: boolean, lingering = false): { world: World; ids: number[] } {
  const world = new WorldClass({ width: SIZE, height: SIZE, capacity: n, seed: 5, cellSize: 8, aoiMoveEvents: false, tier: (process.env.CANTRIP_TIER as 'auto' | undefined) ?? 'auto' });
  world.loadSpells(lingering ? `${DRIFT_SPELL}\n${LINGER_SPELL}` : DRIFT_SPELL);
  world.loadBreeds({ breeds: [{ name: 'Mote', health: 10, ...(tickSpell ? { spells: { tick: 'drift' } } : {}) }] });
  const place = seededRandom(11);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(world.spawn('Mote', place() * SIZE, place() * SIZE));
  if (lingering) for (const id of ids) world.cast('linger', id);
  return { world, ids };
}

/** Sum of a World's positions (the pool's live slots). */
function worldChecksum(world: World): number {
  const pool = world.pool;
  let sum = 0;
  for (let i = 0; i < pool.count; i++) {
    const slot = pool.activeAt(i);
    sum += pool.x[slot]! + pool.y[slot]!;
  }
  return sum;
}

/** Cantrip as a game uses it: a World whose breed has the tick spell (`WorldClass`: another build's, for bench/compare-builds). */
export function cantripWorld(n: number, WorldClass: typeof World = World): TickContender {
  return tickSpellWorld(n, WorldClass, false);
}

/**
 * cantripWorld with a `linger` cast waiting on every entity, from the tick spell's own source: what the
 * waiting casts cost a step (issue 34's target: ≤ 1.3× cantripWorld). Its positions are cantripWorld's
 * (linger draws nothing from the world's random source).
 */
export function cantripWorldWithWaitingCasts(n: number, WorldClass: typeof World = World): TickContender {
  const contender = tickSpellWorld(n, WorldClass, true);
  return { ...contender, engine: WORLD_WITH_WAITING_CASTS };
}

export const WORLD_WITH_WAITING_CASTS = 'Cantrip World.step, a cast waiting on each entity';

/** A World stepping `drift` as its breed's tick spell; any cast-error (a refused or failed tick cast) stops the benchmark with its message. */
function tickSpellWorld(n: number, WorldClass: typeof World, lingering: boolean): TickContender {
  const { world } = driftWorld(n, WorldClass, true, lingering);
  let failure: string | null = null;
  world.on((e) => {
    if (e.type === 'cast-error') failure ??= e.message;
  });
  if (lingering && world.waitingCasts !== n) throw new Error(`${n} linger casts should wait, ${world.waitingCasts} do`);
  return {
    engine: 'Cantrip World.step',
    family: 'World',
    step() {
      world.step();
      if (failure !== null) throw new Error(`the tick spell failed: ${failure}`);
    },
    checksum: () => worldChecksum(world),
    dispose() {},
  };
}

/**
 * The same World without the tick spell: the game runs `drift` itself, as a
 * plain JS function called per entity each step through the World's public
 * API (the world's random source, setVelocity by id), then steps the world.
 * The baseline of issue 20's target: a tick spell costs ≤ 1.5× this.
 */
export function plainJsWorld(n: number, WorldClass: typeof World = World): TickContender {
  const { world, ids } = driftWorld(n, WorldClass, false);
  const drift = (self: number, _dt: number): void => {
    if (world.random() < 0.2) world.setVelocity(self, world.random() * 4 - 2, world.random() * 4 - 2);
  };
  return {
    engine: PLAIN_JS_WORLD,
    family: 'World',
    step() {
      for (let i = 0; i < ids.length; i++) drift(ids[i]!, DT);
      world.step();
    },
    checksum: () => worldChecksum(world),
    dispose() {},
  };
}

export const PLAIN_JS_WORLD = 'plain JS through the World API';

/** Cantrip's VM in the peers' loop: a castLoop run per entity, host functions on the host's arrays. */
export function cantripVm(n: number): TickContender {
  const host = new HostWorld(n);
  const hosts: HostFunction[] = [
    ...CORE_HOST_FUNCTIONS.filter((h) => h.name !== 'random'),
    { name: 'random', params: [], returns: 'number', doc: 'The host random source.', impl: () => host.random() },
    {
      name: 'setVelocity',
      params: [
        { name: 'self', type: 'number' },
        { name: 'vx', type: 'number' },
        { name: 'vy', type: 'number' },
      ],
      returns: 'nil',
      doc: 'Set an entity velocity.',
      impl: (_ctx, e, vx, vy) => {
        host.setVelocity(e as number, vx as number, vy as number);
        return null;
      },
    },
  ];
  const { module, diagnostics } = compile(DRIFT_SPELL, { sourceName: 'drift.spell', hosts });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const vm = new VM(module, { hosts });
  const drift = vm.castLoop('drift');
  const args: Value[] = [0, DT];
  return {
    engine: 'Cantrip VM (castLoop per entity)',
    step() {
      for (let i = 0; i < n; i++) {
        args[0] = i;
        const out = drift.run(args);
        if (out.state !== 'done') throw new Error(out.error?.message ?? `drift ${out.state}`);
      }
      drift.close();
      host.move();
    },
    checksum: () => host.checksum(),
    dispose() {},
  };
}

export function fengariTick(n: number): TickContender {
  const host = new HostWorld(n);
  const { lua, lauxlib, to_luastring } = fengari;
  const L = newFengariState();
  lua.lua_pushjsfunction(L, (state: LuaState) => {
    lua.lua_pushnumber(state, host.random());
    return 1;
  });
  lua.lua_setglobal(L, to_luastring('random'));
  lua.lua_pushjsfunction(L, (state: LuaState) => {
    host.setVelocity(lua.lua_tonumber(state, 1), lua.lua_tonumber(state, 2), lua.lua_tonumber(state, 3));
    return 0;
  });
  lua.lua_setglobal(L, to_luastring('setVelocity'));
  if (lauxlib.luaL_loadstring(L, to_luastring(DRIFT_LUA)) !== lua.LUA_OK || lua.lua_pcall(L, 0, 0, 0) !== lua.LUA_OK) {
    throw new Error(lua.lua_tojsstring(L, -1));
  }
  lua.lua_getglobal(L, to_luastring('drift'));
  const drift = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  return {
    engine: 'fengari',
    step() {
      for (let i = 0; i < n; i++) {
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, drift);
        lua.lua_pushnumber(L, i);
        lua.lua_pushnumber(L, DT);
        if (lua.lua_pcall(L, 2, 0, 0) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1));
      }
      host.move();
    },
    checksum: () => host.checksum(),
    dispose() {
      lua.lua_close(L);
    },
  };
}

export async function wasmoonTick(n: number): Promise<TickContender> {
  const host = new HostWorld(n);
  const engine = await newWasmoonEngine();
  const lua = engine.global.lua;
  const L = engine.global.address;
  const REGISTRY = -1_001_000; // LUA_REGISTRYINDEX for Lua 5.4's default LUAI_MAXSTACK
  // C functions made from JS functions (emscripten addFunction), as a raw-API embedder registers them.
  const random = lua.module.addFunction((state: number) => {
    lua.lua_pushnumber(state, host.random());
    return 1;
  }, 'ii');
  const setVelocity = lua.module.addFunction((state: number) => {
    host.setVelocity(lua.lua_tonumberx(state, 1, null), lua.lua_tonumberx(state, 2, null), lua.lua_tonumberx(state, 3, null));
    return 0;
  }, 'ii');
  lua.lua_pushcclosure(L, random, 0);
  lua.lua_setglobal(L, 'random');
  lua.lua_pushcclosure(L, setVelocity, 0);
  lua.lua_setglobal(L, 'setVelocity');
  engine.doStringSync(DRIFT_LUA);
  lua.lua_getglobal(L, 'drift');
  const drift = BigInt(lua.luaL_ref(L, REGISTRY));
  return {
    engine: 'wasmoon (raw C API)',
    step() {
      for (let i = 0; i < n; i++) {
        lua.lua_rawgeti(L, REGISTRY, drift);
        lua.lua_pushnumber(L, i);
        lua.lua_pushnumber(L, DT);
        if (lua.lua_pcallk(L, 2, 0, 0, 0, null) !== 0) throw new Error(lua.lua_tolstring(L, -1, null));
      }
      host.move();
    },
    checksum: () => host.checksum(),
    dispose() {
      engine.global.close();
      lua.module.removeFunction(random);
      lua.module.removeFunction(setVelocity);
    },
  };
}

export async function quickJsTick(n: number): Promise<TickContender> {
  const host = new HostWorld(n);
  const context = await newQuickJsContext();
  const random = context.newFunction('random', () => context.newNumber(host.random()));
  const setVelocity = context.newFunction('setVelocity', (e, vx, vy) => {
    host.setVelocity(context.getNumber(e), context.getNumber(vx), context.getNumber(vy));
  });
  context.setProp(context.global, 'random', random);
  context.setProp(context.global, 'setVelocity', setVelocity);
  random.dispose();
  setVelocity.dispose();
  const drift = context.unwrapResult(context.evalCode(DRIFT_JS));
  const dt = context.newNumber(DT);
  return {
    engine: 'QuickJS',
    step() {
      for (let i = 0; i < n; i++) {
        const self = context.newNumber(i);
        context.unwrapResult(context.callFunction(drift, context.undefined, self, dt)).dispose();
        self.dispose();
      }
      host.move();
    },
    checksum: () => host.checksum(),
    dispose() {
      drift.dispose();
      dt.dispose();
      context.dispose();
    },
  };
}

export function plainJsTick(n: number): TickContender {
  const host = new HostWorld(n);
  const random = (): number => host.random();
  const setVelocity = (e: number, vx: number, vy: number): void => host.setVelocity(e, vx, vy);
  const drift = new Function('random', 'setVelocity', `return ${DRIFT_JS};`)(random, setVelocity) as (self: number, dt: number) => void;
  return {
    engine: 'plain JS',
    step() {
      for (let i = 0; i < n; i++) drift(i, DT);
      host.move();
    },
    checksum: () => host.checksum(),
    dispose() {},
  };
}

export const TICK_MAKERS: readonly [string, (n: number) => TickContender | Promise<TickContender>][] = [
  ['Cantrip World.step', cantripWorld],
  [PLAIN_JS_WORLD, plainJsWorld],
  ['Cantrip VM (castLoop per entity)', cantripVm],
  ['fengari', fengariTick],
  ['wasmoon (raw C API)', wasmoonTick],
  ['QuickJS', quickJsTick],
  ['plain JS', plainJsTick],
];
