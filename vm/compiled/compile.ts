/**
 * Turning a function's compiled source (vm/compiled/function-source.ts) into a
 * JavaScript function with `new Function`, with the interpreter's helpers in
 * scope. The function takes its VM as its first argument and reads that VM's
 * tables from it, so one function serves every VM of the process that runs
 * the same code. Where `new Function` is refused (a page whose
 * Content-Security-Policy forbids eval), the VM stays on the interpreter.
 */

import * as HELPERS from '../interpreter/helpers.js';
import type { Module } from '../module.js';
import type { ObjFunction } from '../objects.js';
import { frameSlots } from './frame-slots.js';
import { COMPILED_STACK_SLOTS, MAX_COMPILE_SOURCE_CHARS, MAX_COMPILE_WORDS, MAX_VM_COMPILED_CHARS, compiledDepthLimit } from './statuses.js';
import { loopWords, SHARED_HELPERS, compiledEntrySource, compiledFunctionSource, fastPathSource, helperSource } from './function-source.js';

/** A function's compiled code: `(vm, fiber, closure, base, ip, sp) => status`. */
export type CompiledFunction = NonNullable<ObjFunction['compiled']>;

/** A spell's frame-0 entry for a cast loop: `(vm, fiber, closure, a0, a1) => status`. */
export type LoopEntry = NonNullable<ObjFunction['loopEntry']>;

let evalAllowed: boolean | null = null;

/** Refusals a VM keeps the reasons of (FunctionCompiler.refusals); the rest are only counted. */
const MAX_REFUSALS = 100;

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
  /** Milliseconds spent compiling, and bytecode words compiled (for `cantrip run --tier` reports and benchmarks). */
  compileMs = 0;
  compiledWords = 0;
  /** Characters of source compiled (counted against MAX_VM_COMPILED_CHARS). */
  compiledChars = 0;
  /** Compiles refused by the bounds (the code stays on the interpreter), and why: at most MAX_REFUSALS kept. */
  readonly refusals: string[] = [];
  refusalCount = 0;
  /** Whether the last compile asked for was refused by a bound (not a failure: a smaller one may pass). */
  lastRefused = false;
  constructor(
    private readonly module: Module,
    /** The most words one compile may take here (MAX_COMPILE_WORDS, or compileWordsFor the VM's fuel). */
    readonly maxWords = MAX_COMPILE_WORDS,
    /** The most source this VM may compile in all. */
    private readonly maxChars = MAX_VM_COMPILED_CHARS,
  ) {}

  /** `fn`'s compiled code, or null when it cannot be compiled here (lastRefused: a bound refused it). */
  compile(fn: ObjFunction): CompiledFunction | null {
    const compiled = this.compileSource(fn, fn.original.length, { words: fn.original.length }, () => compiledFunctionSource(this.module, fn));
    if (compiled !== null) rememberCode(fn);
    return compiled;
  }

  /**
   * What the process compiled of a function with `fn`'s index and code before (a hint, by a hash:
   * compileRemembered and compileLoop's rememberedOnly decide): `whole` (tier `auto` runs such a
   * function compiled from its first call), `loop` (only a loop of it, compileLoop: a script's top
   * level, a function called once), or null. The first VM of a process, as `cantrip run`'s, hashes nothing.
   */
  compiledBefore(fn: ObjFunction): 'whole' | 'loop' | null {
    if (COMPILED_CODE.size === 0 && COMPILED_LOOP_CODE.size === 0) return null;
    const key = codeKey(fn);
    return COMPILED_CODE.has(key) ? 'whole' : COMPILED_LOOP_CODE.has(key) ? 'loop' : null;
  }

  /**
   * `fn`'s compiled code when the process still holds both the source written for its code (and
   * verified depths) and the function made of it: nothing is written or evaluated, the verifier's
   * pass is all it costs. Null otherwise (the caller then counts fuel towards compiling as usual).
   */
  compileRemembered(fn: ObjFunction): CompiledFunction | null {
    // Nothing written or evaluated, nothing more held: no bound of a compile applies.
    return this.compileSource(fn, null, { words: fn.original.length }, () => {
      const text = compiledFunctionSource(this.module, fn, undefined, undefined, true);
      return text !== null && COMPILED.has(text) ? text : null;
    });
  }

  /**
   * `fn`'s frame-0 entry for a cast loop (ObjFunction.loopEntry; see
   * compiledEntrySource), or null when it cannot be compiled. Made for a
   * spell a loop casts once the spell is compiled: a second compile of the
   * same words, counted in the figures as such.
   */
  compileEntry(fn: ObjFunction): LoopEntry | null {
    return this.compileSource(fn, fn.original.length, { words: fn.original.length }, () => compiledEntrySource(this.module, fn)) as LoopEntry | null;
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
  compileLoop(fn: ObjFunction, header: number, rememberedOnly = false): CompiledFunction | null {
    let loops = this.loops.get(fn);
    if (loops === undefined) this.loops.set(fn, (loops = { words: 0, code: new Map() }));
    const known = loops.code.get(header);
    if (known !== undefined) return known;
    if (loops.words >= fn.original.length) return null;
    const counted = { words: 0 };
    const compiled = this.compileSource(fn, rememberedOnly ? null : loopWords(fn, header), counted, () => {
      // rememberedOnly: the source and function the process holds, or null (nothing written or evaluated; see compileRemembered).
      const text = compiledFunctionSource(this.module, fn, header, counted, rememberedOnly);
      return !rememberedOnly || (text !== null && COMPILED.has(text)) ? text : null;
    });
    loops.words += counted.words;
    if (compiled !== null) {
      loops.code.set(header, compiled);
      remember(COMPILED_LOOP_CODE, fn);
    }
    return compiled;
  }

  /** Drop the compiled loops (the debugger attached: every function runs on the interpreter). */
  forgetLoops(): void {
    this.loops.clear();
  }

  private readonly loops = new Map<ObjFunction, { words: number; code: Map<number, CompiledFunction> }>();

  /**
   * Compile what `source` writes for `fn` (`words`: what it compiles, known before it is written), within
   * the bounds: at most maxWords words, MAX_COMPILE_SOURCE_CHARS of source, and MAX_VM_COMPILED_CHARS in
   * all for this VM. Null (lastRefused) past one of them. `words` null: only what the process holds is
   * taken (compileRemembered), which writes, evaluates and holds nothing more, so no bound applies.
   */
  private compileSource(fn: ObjFunction, words: number | null, counted: { readonly words: number }, source: () => string | null): CompiledFunction | null {
    this.lastRefused = false;
    if (!canCompile()) return null;
    if (words !== null && words > this.maxWords) return this.refuse(fn, `${words} words, more than one compile may take (${this.maxWords})`);
    const started = performance.now();
    const text = source();
    if (text === null) return null;
    if (words === null) {
      const compiled = evaluate(text) as CompiledFunction;
      this.compileMs += performance.now() - started;
      this.compiledWords += counted.words;
      return compiled;
    }
    if (text.length > MAX_COMPILE_SOURCE_CHARS) return this.refuse(fn, `${text.length} characters of source, more than one compile may write (${MAX_COMPILE_SOURCE_CHARS})`);
    if (this.compiledChars + text.length > this.maxChars) return this.refuse(fn, `the VM's compiled code would pass ${this.maxChars} characters of source`);
    this.compiledChars += text.length;
    const compiled = evaluate(text) as CompiledFunction;
    this.compileMs += performance.now() - started;
    this.compiledWords += counted.words;
    return compiled;
  }

  private refuse(fn: ObjFunction, why: string): null {
    this.lastRefused = true;
    this.refusalCount++;
    if (this.refusals.length < MAX_REFUSALS) this.refusals.push(`${fn.name || 'script'}: ${why}`);
    return null;
  }
}

/**
 * The shared helpers compiled code calls (the call paths, the variadic
 * builders), made once per process; each may call the ones before it (an
 * instruction's GOTO reaches a continuation).
 */
let sharedScope: Record<string, unknown> | null = null;

function scope(): Record<string, unknown> {
  if (sharedScope === null) {
    const made: Record<string, unknown> = { ...HELPERS };
    for (const { name, def, fast } of SHARED_HELPERS) made[name] = evaluateIn(made, fast === true ? fastPathSource(name, def) : helperSource(name, def));
    sharedScope = made;
  }
  return sharedScope;
}

/** A function expression's value, with the interpreter's helpers and the shared helpers in scope. */
function evaluateIn(scope: Record<string, unknown>, source: string): unknown {
  const text = `'use strict';\nconst { ${Object.keys(scope).join(', ')} } = scope;\nreturn ${source};`;
  return (new Function('scope', text) as (scope: Record<string, unknown>) => unknown)(scope);
}

/**
 * Compiled functions by source text, shared by every VM of the process: the
 * same function compiled again (the same program in a new VM, a reloaded
 * module, the playground after an edit elsewhere) is the same JavaScript
 * function, with what V8 has learned and optimized of it, instead of a new
 * copy whose calls V8 would see as other targets. The text holds only
 * numbers and fixed names.
 */
function evaluate(source: string): unknown {
  let compiled = COMPILED.get(source);
  if (compiled === undefined) {
    compiled = evaluateIn(scope(), source);
    COMPILED.set(source, compiled);
    FRAME_SLOTS.set(compiled as object, frameSlots(source));
    cachedChars += source.length;
    // The oldest go first (a Map keeps insertion order); V8 keeps each function's source alive.
    while (cachedChars > MAX_CACHED_CHARS && COMPILED.size > 1) {
      const oldest = COMPILED.keys().next().value!;
      cachedChars -= oldest.length;
      COMPILED.delete(oldest);
    }
  }
  return compiled;
}

const COMPILED = new Map<string, unknown>();

/** The JavaScript stack a frame of each compiled function takes (frameSlots), by function. */
const FRAME_SLOTS = new WeakMap<object, number>();

/** How deep in a fiber's frames `compiled` may be entered (ObjFunction.compiledDepth): fewer frames the larger its own. */
export function compiledDepthOf(compiled: CompiledFunction): number {
  return compiledDepthLimit(FRAME_SLOTS.get(compiled) ?? COMPILED_STACK_SLOTS);
}

/**
 * The functions compiled whole in this process (FunctionCompiler.compile), by codeKey. A new VM
 * of the same program (the language suite's next run, the playground's next edit, a reloaded
 * module, another room) would otherwise run each of them on the interpreter again until it has
 * paid for a compile that is now a cache hit; V8 then kept optimizing and deoptimizing the
 * interpreter for those few calls in every run (fib: ~780 calls a run, the interpreter compiled
 * by TurboFan 5-6 times in the first runs of a process, 30-200 ms of CPU each).
 */
const COMPILED_CODE = new Set<string>();
/** At most this many keys (the oldest go first); a key is ~20 characters. */
const MAX_COMPILED_CODE = 100_000;

/** A function's index, its code's length and an FNV-1a hash of its code words: numbers only. */
function codeKey(fn: ObjFunction): string {
  const code = fn.original;
  let hash = 0x811c9dc5;
  for (let i = 0; i < code.length; i++) hash = Math.imul(hash ^ code[i]!, 0x01000193);
  return `${fn.index}:${code.length}:${hash >>> 0}`;
}

/** Forget which code the process compiled (tests of when a function is compiled the first time). */
export function forgetCompiledCode(): void {
  COMPILED_CODE.clear();
  COMPILED_LOOP_CODE.clear();
}

/** The code keys of functions a loop of which was compiled alone (compileLoop), bounded as COMPILED_CODE. */
const COMPILED_LOOP_CODE = new Set<string>();

function rememberCode(fn: ObjFunction): void {
  remember(COMPILED_CODE, fn);
}

function remember(keys: Set<string>, fn: ObjFunction): void {
  keys.add(codeKey(fn));
  if (keys.size > MAX_COMPILED_CODE) keys.delete(keys.values().next().value!);
}
/** At most this much source text cached (characters; V8 holds each cached function's source). */
const MAX_CACHED_CHARS = 16_000_000;
let cachedChars = 0;

/** The JavaScript the compiled tier writes for `fn` (for `cantrip disasm --compiled`), or null when it is not compiled. */
export function compiledSource(module: Module, fn: ObjFunction): string | null {
  return compiledFunctionSource(module, fn);
}
