/**
 * Errors the game runtime reports to its embedder. Spell-level failures use
 * the VM's HostError / SpellRuntimeError; these are for bad data and misuse.
 */

import { formatCodeFrame, formatLocation } from '../compiler/code-frame.js';
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
  override readonly name: string = 'WorldError';
}

/**
 * Spells given to the world do not compile: every error, with its line and
 * column, in the message (one `file:line:column: error: …` line each) and as
 * data; `pretty()` adds code frames, in the format `cantrip check` prints.
 */
export class SpellsCompileError extends WorldError {
  override readonly name: string = 'SpellsCompileError';
  constructor(
    readonly sourceName: string,
    readonly diagnostics: readonly Diagnostic[],
    /** The source that failed, for code frames ('' when unknown). */
    readonly source = '',
  ) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const lines = errors.map((d) => formatLocation(sourceName, d));
    super(`${sourceName} does not compile (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
  }

  /** Every error with its source line and carets, as `cantrip check` prints them. */
  pretty(): string {
    return this.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => formatCodeFrame(this.sourceName, this.source, d))
      .join('\n\n');
  }
}
