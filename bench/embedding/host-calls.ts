/**
 * Benchmark 1: what a host pays to call into a scripting engine. Two script
 * functions, each called from the host in a loop:
 *
 *   add(a, b)  returns a + b                 (the cost of getting in and out)
 *   fields(o)  returns o.x + o.y + o.hp      (o: an object the engine holds)
 *
 * Every contender does the same calls with the same arguments, and its sum
 * of results is checked against the expected one before its time counts.
 */

import fengari from 'fengari';
import type { QuickJSHandle } from 'quickjs-emscripten';
import { compile } from '../../compiler/index.js';
import { VM } from '../../vm/vm.js';
import { World } from '../../runtime/world/world.js';
import type { Value } from '../../vm/value.js';
import { newQuickJsContext } from '../lang/engines/js.js';
import { newFengariState, newWasmoonEngine } from '../lang/engines/lua.js';

/** One contender: runs `n` calls and returns the sum of their results. */
export interface CallContender {
  readonly engine: string;
  /** How it calls (shown under the table). */
  readonly how: string;
  add(n: number): number;
  fields(n: number): number;
  dispose(): void;
}

/** The arguments of call i, the same for every engine. */
const argA = (i: number): number => i & 1023;
const argB = (i: number): number => 7;
/** The object's fields: x + y + hp = 7.5. */
export const FIELDS = { x: 1.5, y: 2.5, hp: 3.5 };

export function expectedAdd(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += argA(i) + argB(i);
  return sum;
}

export function expectedFields(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += FIELDS.x + FIELDS.y + FIELDS.hp;
  return sum;
}

const SPELLS = `
  fun add(a, b) { return a + b; }
  fun fields(o) { return o.x + o.y + o.hp; }
  class Thing { init(x, y, hp) { this.x = x; this.y = y; this.hp = hp; } }
  var thing = Thing(${FIELDS.x}, ${FIELDS.y}, ${FIELDS.hp});
`;

function cantripVm(): VM {
  const { module, diagnostics } = compile(SPELLS, { sourceName: 'embedding.spell' });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  const vm = new VM(module, { fuel: Infinity });
  if (vm.runScript().state !== 'done') throw new Error('the script failed');
  return vm;
}

function numberOf(value: Value, what: string): number {
  if (typeof value !== 'number') throw new Error(`${what} returned ${String(value)}`);
  return value;
}

/** Cantrip's fiber-returning `vm.call` (a Fiber handle per call; its stack is pooled). */
export function cantripCall(): CallContender {
  const vm = cantripVm();
  const thing = vm.getGlobal('thing')!;
  return {
    engine: 'Cantrip vm.call',
    how: "vm.call('add', [a, b]).result: a Fiber per call (stack and frames pooled)",
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += numberOf(vm.call('add', [argA(i), argB(i)]).result, 'add');
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += numberOf(vm.call('fields', [thing]).result, 'fields');
      return sum;
    },
    dispose() {},
  };
}

/** Calls through `vm.callFast` (no allocation per call, one reused outcome), with `object` as fields()'s argument. */
function callFastContender(engine: string, how: string, vm: VM, object: Value): CallContender {
  const args: Value[] = [0, 0];
  const one: Value[] = [object];
  return {
    engine,
    how,
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        args[0] = argA(i);
        args[1] = argB(i);
        sum += numberOf(vm.callFast('add', args).result, 'add');
      }
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += numberOf(vm.callFast('fields', one).result, 'fields');
      return sum;
    },
    dispose() {},
  };
}

/** Cantrip's fast path on a script instance. */
export function cantripCallFast(): CallContender {
  const vm = cantripVm();
  return callFastContender(
    'Cantrip vm.callFast',
    "vm.callFast('add', args).result, args an array the host reuses; fields(o) on a script instance",
    vm,
    vm.getGlobal('thing')!,
  );
}

/** Cantrip with a World entity (a host object) as the object: fields(e) reads e.x, e.y, e.health. */
export function cantripEntity(): CallContender {
  const world = new World({ width: 10, height: 10, capacity: 4, seed: 1 });
  world.loadSpells('fun add(a, b) { return a + b; } fun fields(e) { return e.x + e.y + e.health; } spell none(self) {}');
  world.loadBreeds({ breeds: [{ name: 'Thing', health: FIELDS.hp }] });
  const id = world.spawn('Thing', FIELDS.x, FIELDS.y);
  return callFastContender(
    'Cantrip vm.callFast (entity)',
    "the world's VM; fields(e) on a World entity (a host object: e.x, e.y, e.health)",
    world.spellVm('none')!,
    world.entityRef(id)!,
  );
}

const LUA_SOURCE = `
  function add(a, b) return a + b end
  function fields(o) return o.x + o.y + o.hp end
  thing = { x = ${FIELDS.x}, y = ${FIELDS.y}, hp = ${FIELDS.hp} }
`;

/** fengari (Lua 5.3 in JS) through its C API: functions and the table kept in the registry. */
export function fengariCalls(): CallContender {
  const { lua, lauxlib, to_luastring } = fengari;
  const L = newFengariState();
  if (lauxlib.luaL_loadstring(L, to_luastring(LUA_SOURCE)) !== lua.LUA_OK || lua.lua_pcall(L, 0, 0, 0) !== lua.LUA_OK) {
    throw new Error(lua.lua_tojsstring(L, -1));
  }
  const ref = (name: string): number => {
    lua.lua_getglobal(L, to_luastring(name));
    return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  };
  const add = ref('add');
  const fields = ref('fields');
  const thing = ref('thing');
  const finish = (): number => {
    const value = lua.lua_tonumber(L, -1);
    lua.lua_pop(L, 1);
    return value;
  };
  const check = (status: number): void => {
    if (status !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1));
  };
  return {
    engine: 'fengari',
    how: 'lua_rawgeti(registry, ref); lua_pushnumber ×2; lua_pcall; lua_tonumber; lua_pop',
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, add);
        lua.lua_pushnumber(L, argA(i));
        lua.lua_pushnumber(L, argB(i));
        check(lua.lua_pcall(L, 2, 1, 0));
        sum += finish();
      }
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, fields);
        lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, thing);
        check(lua.lua_pcall(L, 1, 1, 0));
        sum += finish();
      }
      return sum;
    },
    dispose() {
      lua.lua_close(L);
    },
  };
}

/** wasmoon (Lua 5.4 compiled to WebAssembly) through its raw C API, as fengari. */
export async function wasmoonRawCalls(): Promise<CallContender> {
  const engine = await newWasmoonEngine();
  engine.doStringSync(LUA_SOURCE);
  const lua = engine.global.lua;
  const L = engine.global.address;
  const REGISTRY = -1_001_000; // LUA_REGISTRYINDEX for Lua 5.4's default LUAI_MAXSTACK
  const ref = (name: string): bigint => {
    lua.lua_getglobal(L, name);
    return BigInt(lua.luaL_ref(L, REGISTRY));
  };
  const add = ref('add');
  const fields = ref('fields');
  const thing = ref('thing');
  const finish = (status: number): number => {
    if (status !== 0) throw new Error(lua.lua_tolstring(L, -1, null));
    const value = lua.lua_tonumberx(L, -1, null);
    lua.lua_settop(L, -2);
    return value;
  };
  return {
    engine: 'wasmoon (raw C API)',
    how: 'lua_rawgeti(registry, ref); lua_pushnumber ×2; lua_pcallk; lua_tonumberx; lua_settop',
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        lua.lua_rawgeti(L, REGISTRY, add);
        lua.lua_pushnumber(L, argA(i));
        lua.lua_pushnumber(L, argB(i));
        sum += finish(lua.lua_pcallk(L, 2, 1, 0, 0, null));
      }
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        lua.lua_rawgeti(L, REGISTRY, fields);
        lua.lua_rawgeti(L, REGISTRY, thing);
        sum += finish(lua.lua_pcallk(L, 1, 1, 0, 0, null));
      }
      return sum;
    },
    dispose() {
      engine.global.close();
    },
  };
}

/** wasmoon's JS wrapper: `lua.global.get('add')` is a JS function; a JS object argument becomes a table per call. */
export async function wasmoonWrapperCalls(): Promise<CallContender> {
  const engine = await newWasmoonEngine();
  engine.doStringSync(LUA_SOURCE);
  const add = engine.global.get('add') as (a: number, b: number) => number;
  const fields = engine.global.get('fields') as (o: typeof FIELDS) => number;
  const thing = { ...FIELDS };
  return {
    engine: 'wasmoon (wrapper)',
    how: "engine.global.get('add')(a, b); fields(o) with a JS object (converted to a table each call)",
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += add(argA(i), argB(i));
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += fields(thing);
      return sum;
    },
    dispose() {
      engine.global.close();
    },
  };
}

/** QuickJS (quickjs-emscripten): callFunction on handles; numbers are handles too. */
export async function quickJsCalls(): Promise<CallContender> {
  const context = await newQuickJsContext();
  const defined = context.evalCode(
    `globalThis.add = (a, b) => a + b;
     globalThis.fields = (o) => o.x + o.y + o.hp;
     globalThis.thing = ${JSON.stringify(FIELDS)};`,
  );
  context.unwrapResult(defined).dispose();
  const add = context.getProp(context.global, 'add');
  const fields = context.getProp(context.global, 'fields');
  const thing = context.getProp(context.global, 'thing');
  const finish = (result: ReturnType<typeof context.callFunction>): number => {
    const handle: QuickJSHandle = context.unwrapResult(result);
    const value = context.getNumber(handle);
    handle.dispose();
    return value;
  };
  return {
    engine: 'QuickJS',
    how: 'newNumber ×2; callFunction(fn, undefined, …); getNumber; dispose the handles',
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const a = context.newNumber(argA(i));
        const b = context.newNumber(argB(i));
        sum += finish(context.callFunction(add, context.undefined, a, b));
        a.dispose();
        b.dispose();
      }
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += finish(context.callFunction(fields, context.undefined, thing));
      return sum;
    },
    dispose() {
      add.dispose();
      fields.dispose();
      thing.dispose();
      context.dispose();
    },
  };
}

/**
 * Plain JS in the host's own engine: the floor. Its loops are its own (not a
 * helper shared with the wasmoon wrapper's): a shared loop would share V8's
 * type feedback and stop V8 inlining the call, which is what makes it the floor.
 */
export function plainJsCalls(): CallContender {
  // Built with new Function so V8 sees them as the host sees a script's functions: called, not known.
  const add = new Function('a', 'b', 'return a + b;') as (a: number, b: number) => number;
  const fields = new Function('o', 'return o.x + o.y + o.hp;') as (o: typeof FIELDS) => number;
  const thing = { ...FIELDS };
  return {
    engine: 'plain JS',
    how: 'a JS function called directly (V8 may inline it: the floor, not a peer)',
    add(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += add(argA(i), argB(i));
      return sum;
    },
    fields(n) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += fields(thing);
      return sum;
    },
    dispose() {},
  };
}

/** Every contender, in table order; one that cannot start is reported and left out. */
export async function callContenders(): Promise<{ contenders: CallContender[]; missing: { engine: string; reason: string }[] }> {
  const makers: [string, () => CallContender | Promise<CallContender>][] = [
    ['Cantrip vm.callFast', cantripCallFast],
    ['Cantrip vm.call', cantripCall],
    ['Cantrip vm.callFast (entity)', cantripEntity],
    ['fengari', fengariCalls],
    ['wasmoon (raw C API)', wasmoonRawCalls],
    ['wasmoon (wrapper)', wasmoonWrapperCalls],
    ['QuickJS', quickJsCalls],
    ['plain JS', plainJsCalls],
  ];
  const contenders: CallContender[] = [];
  const missing: { engine: string; reason: string }[] = [];
  for (const [engine, make] of makers) {
    try {
      contenders.push(await make());
    } catch (error) {
      missing.push({ engine, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) });
    }
  }
  return { contenders, missing };
}
