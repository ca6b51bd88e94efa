/**
 * Errors the game runtime reports to its embedder. Spell-level failures use
 * the VM's HostError / SpellRuntimeError; these are for bad data and misuse.
 */

import type { Diagnostic } from '../compiler/diagnostics.js';

/** Bad breed data: names the breed and the field (and the JSON position for syntax errors). */
export class BreedError extends Error {
  override readonly name = 'BreedError';
  constructor(
    message: string,
    /** The breed the problem is in, when known. */
    readonly breed: string | null = null,
    /** The field (a JSON-pointer-like path inside the breed, e.g. 'spells.attack'), when known. */
    readonly field: string | null = null,
    /** 1-based position of a JSON syntax error. */
    readonly line: number | null = null,
    readonly column: number | null = null,
  ) {
    super(message);
  }
}

/** A world-level failure the embedder caused or must handle: pool full, bad scenario, unknown spell. */
export class WorldError extends Error {
  override readonly name = 'WorldError';
}

/** Spells given to the world do not compile: every error, with its line and column, in the message and as data. */
export class SpellsCompileError extends WorldError {
  constructor(
    readonly sourceName: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const lines = errors.map((d) => `${sourceName}:${d.line}:${d.column}: error: ${d.message}`);
    super(`${sourceName} does not compile (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
  }
}
