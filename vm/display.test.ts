import { describe, expect, it } from 'vitest';
import { displayBounded, displayNumber, displayValue } from './display.js';
import { ObjClass, ObjInstance, ObjList } from './objects.js';

describe('displayValue', () => {
  it('prints numbers as Lox does', () => {
    expect(displayNumber(3)).toBe('3');
    expect(displayNumber(2.5)).toBe('2.5');
    expect(displayNumber(-0)).toBe('-0');
    expect(displayNumber(0)).toBe('0');
    expect(displayNumber(NaN)).toBe('nan');
    expect(displayNumber(Infinity)).toBe('inf');
    expect(displayNumber(-Infinity)).toBe('-inf');
    expect(displayNumber(1e21)).toBe('1e+21');
  });

  it('prints nil, booleans, strings, classes, instances and lists', () => {
    const troll = new ObjClass('Troll');
    expect([null, true, false, 'rune'].map(displayValue)).toEqual(['nil', 'true', 'false', 'rune']);
    expect(displayValue(troll)).toBe('Troll');
    expect(displayValue(new ObjInstance(troll))).toBe('Troll instance');
    expect(displayValue(new ObjList([1, 'a', null, new ObjList([])]))).toBe('[1, a, nil, []]');
  });

  it('shows a list that contains itself as [...] there', () => {
    const list = new ObjList([1]);
    list.items.push(list);
    expect(displayValue(list)).toBe('[1, [...]]');
  });

  it('gives up on text longer than the bound', () => {
    let nested = new ObjList([1, 2, 3]);
    for (let i = 0; i < 40; i++) nested = new ObjList([nested, nested]);
    expect(displayBounded(nested, 10_000)).toBeNull();
    expect(displayBounded(new ObjList([1, 2]), 6)).toBe('[1, 2]');
    expect(displayBounded(new ObjList([1, 2]), 5)).toBeNull();
  });
});
