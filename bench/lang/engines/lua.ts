/**
 * Lua 5.4 compiled to WebAssembly (wasmoon) and Lua 5.3 reimplemented in JS
 * (fengari). Each engine keeps one Lua state for the whole run, so state
 * creation (startup) is never timed; `print` is replaced to capture output.
 */

import fengari, { type LuaState } from 'fengari';
import { LuaFactory, type LuaEngine } from 'wasmoon';
import { formatPrinted, type Engine } from '../engine.js';

/** A wasmoon Lua 5.4 engine with the standard libraries (bench/embedding drives it through its raw C API too). */
export function newWasmoonEngine(): Promise<LuaEngine> {
  return new LuaFactory().createEngine();
}

/** A fengari Lua 5.3 state with the standard libraries. */
export function newFengariState(): LuaState {
  const L = fengari.lauxlib.luaL_newstate();
  fengari.lualib.luaL_openlibs(L);
  return L;
}

export async function createWasmoonEngine(): Promise<Engine> {
  const lua = await newWasmoonEngine();
  let lines: string[] = [];
  lua.global.set('print', (...args: unknown[]) => {
    lines.push(args.map(formatPrinted).join('\t'));
  });
  return {
    name: 'wasmoon',
    language: 'lua',
    run(source) {
      lines = [];
      lua.doStringSync(source);
      return lines;
    },
    collect() {
      lua.doStringSync('collectgarbage()');
    },
    dispose() {
      lua.global.close();
    },
  };
}

export function createFengariEngine(): Engine {
  const { lua, lauxlib, to_luastring } = fengari;
  const L = newFengariState();
  let lines: string[] = [];

  const valueText = (index: number): string => {
    const type = lua.lua_type(L, index);
    if (type === lua.LUA_TNIL) return 'nil';
    if (type === lua.LUA_TBOOLEAN) return String(lua.lua_toboolean(L, index));
    if (type === lua.LUA_TNUMBER) {
      return formatPrinted(lua.lua_isinteger(L, index) ? lua.lua_tointeger(L, index) : lua.lua_tonumber(L, index));
    }
    if (type === lua.LUA_TSTRING) return lua.lua_tojsstring(L, index);
    lauxlib.luaL_tolstring(L, index);
    const text = lua.lua_tojsstring(L, -1);
    lua.lua_pop(L, 1);
    return text;
  };

  lua.lua_pushjsfunction(L, (state: LuaState) => {
    const count = lua.lua_gettop(state);
    const parts: string[] = [];
    for (let i = 1; i <= count; i++) parts.push(valueText(i));
    lines.push(parts.join('\t'));
    return 0;
  });
  lua.lua_setglobal(L, to_luastring('print'));

  const runChunk = (source: string): void => {
    const status =
      lauxlib.luaL_loadstring(L, to_luastring(source)) === lua.LUA_OK ? lua.lua_pcall(L, 0, 0, 0) : -1;
    if (status !== lua.LUA_OK) {
      const message = lua.lua_tojsstring(L, -1);
      lua.lua_settop(L, 0);
      throw new Error(message);
    }
    lua.lua_settop(L, 0);
  };

  return {
    name: 'fengari',
    language: 'lua',
    run(source) {
      lines = [];
      runChunk(source);
      return lines;
    },
    // fengari's objects live on the JS heap; its collectgarbage() is not implemented.
    collect() {},
    dispose() {
      lua.lua_close(L);
    },
  };
}
