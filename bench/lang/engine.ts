/**
 * What the harness needs from a language engine: run one whole program
 * (compile + execute) and hand back what it printed, so every engine's
 * answer can be checked against the same checksum.
 */

/** `interpreter`: Cantrip on its interpreter alone (tier 'interpreter'), to show what the compiled tier gains. */
export type EngineName = 'cantrip' | 'interpreter' | 'quickjs' | 'fengari' | 'wasmoon' | 'node';

/** Which program file an engine runs: `<benchmark>.spell`, `.lua` or `.js`. */
export type Language = 'spell' | 'lua' | 'js';

export interface Engine {
  readonly name: EngineName;
  readonly language: Language;
  /** Compiles and runs one whole program; returns its printed lines. Throws an Error on failure. */
  run(source: string): string[];
  /** Untimed housekeeping between runs (a full GC where the engine offers one). */
  collect(): void;
  dispose(): void;
}

/** The engines in table order: Cantrip first, then the peers. */
export const ENGINE_ORDER: readonly EngineName[] = ['cantrip', 'interpreter', 'quickjs', 'fengari', 'wasmoon', 'node'];

export const LANGUAGE_OF: Readonly<Record<EngineName, Language>> = {
  cantrip: 'spell',
  interpreter: 'spell',
  quickjs: 'js',
  fengari: 'lua',
  wasmoon: 'lua',
  node: 'js',
};

/**
 * Prints a JS value the way Lox does (integers without ".0", nil, true),
 * so Lua's and JS's output compares equal to Cantrip's.
 */
export function formatPrinted(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  return String(value);
}
