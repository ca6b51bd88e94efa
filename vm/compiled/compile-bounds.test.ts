/**
 * What a compile may take is bounded (vm/compiled/statuses.ts): the words of
 * one compile, the source it writes, and the source a VM compiles in all. A
 * function past a bound stays on the interpreter (its loops compiled alone
 * where each is within it), and runs exactly as it would there. Asserted on
 * the decisions and the results, never on time.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import type { Module } from '../module.js';
import { VM, type Tier } from '../vm.js';
import { FunctionCompiler } from './compile.js';
import { COMPILE_FUEL_PER_WORD, MAX_COMPILE_WORDS, compileWordsFor } from './statuses.js';
import { describeFiber } from '../../tests/fuzz/tier-transcript.js';

/** `fun chain(x)` of `n` `else if`s (about 17 words each), returning which branch matched. */
function elseIfs(n: number): string {
  const branches = Array.from({ length: n }, (_, i) => `  else if (x == ${i + 1}) return ${i + 1} * 2;`).join('\n');
  return `fun chain(x) {\n  if (x == 0) return 0;\n${branches}\n  return -1;\n}\n`;
}

function moduleOf(source: string): Module {
  const { module, diagnostics } = compile(source);
  if (module === null) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return module;
}

function run(module: Module, tier: Tier, fuel = 1e9): { lines: string[]; vm: VM } {
  const lines: string[] = [];
  const vm = new VM(module, { tier, fuel, print: (text) => lines.push(text) });
  lines.push(describeFiber(vm.runScript()));
  expect(vm.compileFailures).toEqual([]);
  return { lines, vm };
}

const fnNamed = (vm: VM, name: string) => vm.runtimeFunctions.find((fn) => fn.name === name)!;

describe('what a compile may take', () => {
  it('a function past the words of one compile stays on the interpreter, with the same results (tier compiled)', () => {
    const module = moduleOf(`${elseIfs(600)}print chain(5); print chain(600); print chain(601);`);
    const interpreted = run(module, 'interpreter');
    const compiled = run(module, 'compiled');
    expect(compiled.lines).toEqual(interpreted.lines);
    expect(compiled.lines.slice(0, 3)).toEqual(['10', '1200', '-1']);
    const chain = fnNamed(compiled.vm, 'chain');
    expect(chain.original.length).toBeGreaterThan(MAX_COMPILE_WORDS);
    expect(chain.compiled).toBeNull();
    expect(fnNamed(compiled.vm, '').compiled).not.toBeNull();
    expect(compiled.vm.compileStats.refused).toBe(1);
    expect(compiled.vm.compileRefusals).toEqual([`chain: ${chain.original.length} words, more than one compile may take (${MAX_COMPILE_WORDS})`]);
  });

  it('called hot on tier auto, it stays on the interpreter, and its calls ask again at a fuel threshold only (no compile each call)', () => {
    const module = moduleOf(`${elseIfs(600)}var t = 0; for (var i = 0; i < 3000; i = i + 1) t = t + chain(i % 700); print t;`);
    const interpreted = run(module, 'interpreter');
    const auto = run(module, 'auto');
    expect(auto.lines).toEqual(interpreted.lines);
    expect(fnNamed(auto.vm, 'chain').compiled).toBeNull();
    // Refused once per fuelBeforeCompiling(words) of its calls, never written: a handful, not 3,000.
    expect(auto.vm.compileStats.refused).toBeGreaterThan(0);
    expect(auto.vm.compileStats.refused).toBeLessThan(20);
  });

  it('a script past the bound compiles its hot loop alone, within the bound', () => {
    const padding = Array.from({ length: 320 }, (_, i) => `if (x == ${i}) print ${i};`).join('\n');
    const module = moduleOf(`var x = -1;\n${padding}\nvar s = 0;\nfor (var i = 0; i < 400000; i = i + 1) s = s + i % 7;\nprint s;\n${padding}`);
    const interpreted = run(module, 'interpreter');
    const auto = run(module, 'auto');
    expect(auto.lines).toEqual(interpreted.lines);
    const script = fnNamed(auto.vm, '');
    expect(script.original.length).toBeGreaterThan(MAX_COMPILE_WORDS);
    expect(script.compiled).toBeNull();
    expect(auto.vm.compileStats.words).toBeGreaterThan(0);
    expect(auto.vm.compileStats.words).toBeLessThan(100);
  });

  it('on tier auto one compile is also bounded by a slice of the VM\'s fuel', () => {
    expect(compileWordsFor(Infinity)).toBe(MAX_COMPILE_WORDS);
    expect(compileWordsFor(1_000_000)).toBe(1_000_000 / COMPILE_FUEL_PER_WORD);
    expect(compileWordsFor(100)).toBe(0);
    // A function of ~2,600 words, called in slices of 200 calls: compiled once hot under 10,000,000 fuel a
    // slice, not under a world's 1,000,000 (2,500 words a compile); the same results either way.
    const module = moduleOf(`${elseIfs(150)}fun many() { var t = 0; for (var i = 0; i < 200; i = i + 1) t = t + chain(i % 3); return t; }`);
    const words = module.functions.find((fn) => fn.name === 'chain')!.code.length;
    expect(words).toBeGreaterThan(2_500);
    expect(words).toBeLessThan(MAX_COMPILE_WORDS);
    const slices = (fuel: number) => {
      const vm = new VM(module, { tier: 'auto', fuel });
      vm.runScript();
      const results = Array.from({ length: 12 }, () => describeFiber(vm.call('many', [])));
      return { vm, results };
    };
    // The tight one first: a later VM takes what the process compiled before (compileRemembered: nothing written).
    const tight = slices(1_000_000);
    const roomy = slices(10_000_000);
    expect(JSON.parse(tight.results.at(-1)!).result).toBe('398');
    expect(tight.results.map((r) => JSON.parse(r).result)).toEqual(roomy.results.map((r) => JSON.parse(r).result));
    expect(fnNamed(roomy.vm, 'chain').compiled).not.toBeNull();
    expect(fnNamed(tight.vm, 'chain').compiled).toBeNull();
    expect(tight.vm.compileRefusals[0]).toBe(`chain: ${words} words, more than one compile may take (2500)`);
  });

  it('the source a VM compiles in all counts against its limit; past it nothing more is compiled', () => {
    const module = moduleOf('fun a(x) { return x + 1; } fun b(x) { return x * 2; } fun c(x) { return x - 3; }');
    const vm = new VM(module, { tier: 'interpreter' });
    const [, a, b, c] = vm.runtimeFunctions;
    const probe = new FunctionCompiler(module);
    expect(probe.compile(a!)).not.toBeNull();
    const one = probe.compiledChars;
    expect(one).toBeGreaterThan(0);
    const compiler = new FunctionCompiler(module, MAX_COMPILE_WORDS, Math.floor(one * 2.5));
    expect(compiler.compile(a!)).not.toBeNull();
    expect(compiler.compile(b!)).not.toBeNull();
    expect(compiler.compile(c!)).toBeNull();
    expect(compiler.lastRefused).toBe(true);
    expect(compiler.refusals).toEqual([`c: the VM's compiled code would pass ${Math.floor(one * 2.5)} characters of source`]);
    expect(compiler.compiledChars).toBeLessThanOrEqual(one * 2.5);
  });
});
