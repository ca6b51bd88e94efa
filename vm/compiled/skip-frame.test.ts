/**
 * Which functions a call from compiled code may run without a frame
 * (ObjFunction.inline, vm/compiled/enter.ts skipFrame): the forms are read
 * from the function's code when it is loaded, and anything more than those
 * forms gets a frame. That the skipped calls behave exactly as the
 * interpreter's is checked in tiers.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { CORE_HOST_FUNCTIONS } from '../builtins.js';
import { INLINE_GETTER, INLINE_NIL, INLINE_NONE, INLINE_SELF, INLINE_STORES, ObjFunction } from '../objects.js';

const SOURCE = `
  class A {
    init() {}
    getter() { return this.x; }
    nothing() {}
    set(v) { this.x = v; }
    other(v) { return this.y; }
    twoFields(a, b) { this.a = a; this.b = "b"; return this; }
    getterPlus() { return this.x + 1; }
    storeThenPrint(v) { this.x = v; print v; }
    storeOfField(v) { this.x = this.y; }
    storeOfLocal(v) { var w = v; this.x = w; }
    storesUpToEight(v) { this.a = v; this.b = v; this.c = v; this.d = v; this.e = v; this.f = v; this.g = v; this.h = v; }
    storesPastEight(v) { this.a = v; this.b = v; this.c = v; this.d = v; this.e = v; this.f = v; this.g = v; this.h = v; this.i = v; }
    returnsConstant() { return 1; }
  }
  class B { init(x, y) { this.x = x; this.y = y; } }
  fun empty(a, b) {}
  fun notSelf() { return notSelf; }
`;

function functionsByName(): Map<string, ObjFunction[]> {
  const { module } = compile(SOURCE, { hosts: CORE_HOST_FUNCTIONS });
  const byName = new Map<string, ObjFunction[]>();
  module!.functions.forEach((proto, i) => {
    const fn = new ObjFunction(proto, i, 1);
    byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
  });
  return byName;
}

describe('calls that skip their frame', () => {
  const byName = functionsByName();
  const kind = (name: string, which = 0): number => byName.get(name)![which]!.inline;

  it('reads the four forms from the code', () => {
    expect(kind('init', 0)).toBe(INLINE_SELF);
    expect(kind('getter')).toBe(INLINE_GETTER);
    expect(kind('nothing')).toBe(INLINE_NIL);
    expect(kind('empty')).toBe(INLINE_NIL);
    expect(kind('set')).toBe(INLINE_STORES);
    expect(kind('twoFields')).toBe(INLINE_STORES);
    expect(kind('init', 1)).toBe(INLINE_STORES);
    expect(kind('storesUpToEight')).toBe(INLINE_STORES);
    // A getter or a setter may take arguments (the call checks the arity as for any call).
    expect(kind('other')).toBe(INLINE_GETTER);
  });

  it('keeps the stores, their values and what the function returns', () => {
    const set = byName.get('set')![0]!;
    expect(set.inlineReturnsSelf).toBe(false);
    // SET_PROPERTY's cache at offset 5 (after GET_LOCAL 0; GET_LOCAL 1), storing parameter 1.
    expect([...set.inlineStores!]).toEqual([5, 1]);
    const two = byName.get('twoFields')![0]!;
    expect(two.inlineReturnsSelf).toBe(true);
    expect(two.inlineStores!.length).toBe(4);
    expect(two.inlineStores![1]).toBe(1);
    // The second store's value is a constant: -1 - its index.
    expect(two.inlineStores![3]).toBeLessThan(0);
    expect(byName.get('getter')![0]!.inlineStores).toBeNull();
  });

  it('gives a frame to anything more', () => {
    for (const name of ['notSelf', 'getterPlus', 'storeThenPrint', 'storeOfField', 'storeOfLocal', 'storesPastEight', 'returnsConstant']) {
      expect(kind(name), name).toBe(INLINE_NONE);
    }
  });
});
