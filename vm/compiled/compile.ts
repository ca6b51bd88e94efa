/**
 * Turning a function's compiled source (vm/compiled/function-source.ts) into a
 * JavaScript function with `new Function`, bound to one VM's tables and the
 * interpreter's helpers. Where `new Function` is refused (a page whose
 * Content-Security-Policy forbids eval), the VM stays on the interpreter.
 */

import * as HELPERS from '../interpreter/helpers.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import type { Module } from '../module.js';
import type { ObjFunction } from '../objects.js';
import { SHARED_HELPERS, compiledFunctionSource, fastPathSource, helperSource } from './function-source.js';

/** A function's compiled code: `(fiber, closure, base, ip) => status`. */
export type CompiledFunction = NonNullable<ObjFunction['compiled']>;

/** The per-VM names compiled code reads. */
const VM_NAMES = ['vm', 'constants', 'globals', 'globalNames', 'functions', 'hostImports', 'ctx', 'print'] as const;

let evalAllowed: boolean | null = null;

/** Whether this JavaScript environment lets code be compiled at run time (a strict Content-Security-Policy does not). */
export function canCompile(): boolean {
  if (evalAllowed === null) {
    try {
      evalAllowed = new Function('return 1')() === 1;
    } catch {
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

/** Check again whether code may be compiled (tests that forbid `new Function`, then allow it again). */
export function forgetCompileCheck(): void {
  evalAllowed = null;
}

/** Compiles functions of one VM. */
export class FunctionCompiler {
  private readonly scope: Record<string, unknown>;
  /** Milliseconds spent compiling, and bytecode words compiled (for `cantrip run --tier` reports and benchmarks). */
  compileMs = 0;
  compiledWords = 0;
  private continuationsReady = false;

  constructor(
    private readonly module: Module,
    vm: InterpreterVM,
  ) {
    this.scope = {
      ...HELPERS,
      vm,
      constants: vm.constants,
      globals: vm.globals,
      globalNames: vm.globalNames,
      functions: vm.functions,
      hostImports: vm.hostImports,
      ctx: vm.ctx,
      print: vm.printFn,
    };
  }

  private evaluate(source: string): unknown {
    return evaluateIn(this.scope, source);
  }

  /** `fn`'s compiled code, or null when it cannot be compiled here. */
  compile(fn: ObjFunction): CompiledFunction | null {
    return this.compileSource({ words: fn.original.length }, () => compiledFunctionSource(this.module, fn));
  }

  /**
   * The compiled code of `fn`'s loop at `header`, entered there (a hot loop of
   * a function running on the interpreter: a script's top level is never
   * called again, and compiling all of it, its set-up and what follows its
   * loops, cost V8 far more than the loop). Null when it cannot be compiled,
   * or when `fn`'s loops were compiled for as many words as `fn` has (so its
   * loops cost at most two compiles of it): the caller then compiles the
   * whole function.
   */
  compileLoop(fn: ObjFunction, header: number): CompiledFunction | null {
    let loops = this.loops.get(fn);
    if (loops === undefined) this.loops.set(fn, (loops = { words: 0, code: new Map() }));
    const known = loops.code.get(header);
    if (known !== undefined) return known;
    if (loops.words >= fn.original.length) return null;
    const counted = { words: 0 };
    const compiled = this.compileSource(counted, () => compiledFunctionSource(this.module, fn, header, counted));
    loops.words += counted.words;
    if (compiled !== null) loops.code.set(header, compiled);
    return compiled;
  }

  /** Drop the compiled loops (the debugger attached: every function runs on the interpreter). */
  forgetLoops(): void {
    this.loops.clear();
  }

  private readonly loops = new Map<ObjFunction, { words: number; code: Map<number, CompiledFunction> }>();

  private compileSource(counted: { readonly words: number }, source: () => string | null): CompiledFunction | null {
    if (!canCompile()) return null;
    const started = performance.now();
    if (!this.continuationsReady) {
      // Each helper may call the ones before it (an instruction's GOTO reaches a continuation).
      for (const { name, def, fast } of SHARED_HELPERS) this.scope[name] = this.evaluate(fast === true ? fastPathSource(name, def) : helperSource(name, def));
      this.continuationsReady = true;
    }
    const text = source();
    if (text === null) return null;
    const compiled = this.evaluate(text) as CompiledFunction;
    this.compileMs += performance.now() - started;
    this.compiledWords += counted.words;
    return compiled;
  }
}

/** A function expression's value, with the helpers, the VM's tables and the call continuations in scope. */
function evaluateIn(scope: Record<string, unknown>, source: string): unknown {
  const names = [...Object.keys(HELPERS), ...VM_NAMES, ...SHARED_HELPERS.map((h) => h.name)].filter((name) => name in scope);
  const text = `'use strict';\nconst { ${names.join(', ')} } = scope;\nreturn ${source};`;
  let factory = FACTORIES.get(text);
  if (factory === undefined) {
    factory = new Function('scope', text) as Factory;
    FACTORIES.set(text, factory);
    cachedChars += text.length;
    // The oldest go first (a Map keeps insertion order); V8 keeps each factory's source alive.
    while (cachedChars > MAX_CACHED_CHARS && FACTORIES.size > 1) {
      const oldest = FACTORIES.keys().next().value!;
      cachedChars -= oldest.length;
      FACTORIES.delete(oldest);
    }
  }
  return factory(scope);
}

type Factory = (scope: Record<string, unknown>) => unknown;

/**
 * Factories by source text, shared by every VM of the process: the same
 * function compiled again (the same program in a new VM, a reloaded module,
 * the playground after an edit elsewhere) reuses the factory, and with it
 * what V8 has learned and optimized of the code it makes, instead of
 * warming up a new copy. The text holds only numbers and fixed names.
 */
const FACTORIES = new Map<string, Factory>();
/** At most this much source text cached (characters; V8 holds each cached factory's source). */
const MAX_CACHED_CHARS = 16_000_000;
let cachedChars = 0;

/** The JavaScript the compiled tier writes for `fn` (for `cantrip disasm --compiled`), or null when it is not compiled. */
export function compiledSource(module: Module, fn: ObjFunction): string | null {
  return compiledFunctionSource(module, fn);
}
