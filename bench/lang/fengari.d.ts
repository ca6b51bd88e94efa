/** The small part of fengari's C-like API (Lua 5.3 in JS) the benchmark uses; fengari ships no types. */
declare module 'fengari' {
  export type LuaState = { readonly __luaState: unique symbol };
  export type LuaJsFunction = (L: LuaState) => number;

  interface LuaApi {
    readonly LUA_OK: number;
    readonly LUA_TNIL: number;
    readonly LUA_TBOOLEAN: number;
    readonly LUA_TNUMBER: number;
    readonly LUA_TSTRING: number;
    readonly LUA_REGISTRYINDEX: number;
    lua_gettop(L: LuaState): number;
    lua_settop(L: LuaState, index: number): void;
    lua_type(L: LuaState, index: number): number;
    lua_isinteger(L: LuaState, index: number): boolean;
    lua_tointeger(L: LuaState, index: number): number;
    lua_tonumber(L: LuaState, index: number): number;
    lua_toboolean(L: LuaState, index: number): boolean;
    lua_tojsstring(L: LuaState, index: number): string;
    lua_pushjsfunction(L: LuaState, fn: LuaJsFunction): void;
    lua_setglobal(L: LuaState, name: Uint8Array): void;
    lua_pcall(L: LuaState, nargs: number, nresults: number, msgh: number): number;
    lua_pop(L: LuaState, n: number): void;
    lua_pushnumber(L: LuaState, n: number): void;
    lua_getglobal(L: LuaState, name: Uint8Array): number;
    lua_rawgeti(L: LuaState, index: number, n: number): number;
    lua_close(L: LuaState): void;
  }

  interface LauxlibApi {
    luaL_newstate(): LuaState;
    luaL_loadstring(L: LuaState, source: Uint8Array): number;
    luaL_tolstring(L: LuaState, index: number): Uint8Array;
    luaL_ref(L: LuaState, table: number): number;
  }

  interface LualibApi {
    luaL_openlibs(L: LuaState): void;
  }

  const fengari: {
    readonly lua: LuaApi;
    readonly lauxlib: LauxlibApi;
    readonly lualib: LualibApi;
    to_luastring(text: string): Uint8Array;
  };
  export default fengari;
}
