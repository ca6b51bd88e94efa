import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPCODES } from './opcodes.js';
import { SUPERINSTRUCTIONS } from './superinstructions.js';

/**
 * vm/vm.ts writes its switch cases as numeric literals with the opcode name
 * in a comment (`case 22 \/* ADD *\/:`), because V8 only builds a jump table
 * for constant case values (see the measurements in vm.ts). This keeps those
 * literals honest against the one opcode table.
 */
const source = readFileSync(fileURLToPath(new URL('./vm.ts', import.meta.url)), 'utf8');
const cases = [...source.matchAll(/case (-?\d+) \/\* ([A-Z_0-9]+) \*\/:/g)].map((m) => ({ value: Number(m[1]), name: m[2]! }));

describe("the interpreter's case labels", () => {
  it('handle every opcode exactly once, under its table number', () => {
    const opcodeCases = cases.filter((c) => c.value >= 0 && c.value < 64);
    expect(opcodeCases.map((c) => c.name).sort()).toEqual(OPCODES.map((o) => o.name).sort());
    for (const c of opcodeCases) expect(OPCODES[c.value]?.name).toBe(c.name);
  });

  it('handle every superinstruction under its number', () => {
    const superCases = cases.filter((c) => c.value >= 64);
    expect(Object.fromEntries(superCases.map((c) => [c.name, c.value]))).toEqual(SUPERINSTRUCTIONS);
    expect(Math.min(...Object.values(SUPERINSTRUCTIONS))).toBeGreaterThanOrEqual(OPCODES.length);
  });

  it('re-dispatch to plain opcodes by their table number', () => {
    const redispatch = [...source.matchAll(/op = (\d+) \/\* ([A-Z_0-9]+) \*\//g)];
    expect(redispatch.length).toBeGreaterThan(0);
    for (const m of redispatch) expect(OPCODES[Number(m[1])]?.name).toBe(m[2]);
  });

  it('use negative numbers only for internal pseudo-opcodes, matching their constants', () => {
    for (const c of cases.filter((c) => c.value < 0)) {
      expect(source).toContain(`const ${c.name} = ${c.value};`);
    }
  });

  it('are the only case labels in the switch', () => {
    const allCases = [...source.matchAll(/^\s*case [^:]+:/gm)].length;
    const opcodeSwitchCases = cases.length;
    // The remaining cases are the `switch (argc)` of host calls.
    expect(allCases - opcodeSwitchCases).toBe(5);
  });
});
