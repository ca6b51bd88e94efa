/**
 * Errors the game runtime reports to its embedder. Spell-level failures use
 * the VM's HostError / SpellRuntimeError; these are for bad data and misuse.
 */

import { formatCodeFrame, formatLocation } from '../compiler/code-frame.js';
import type { Diagnostic } from '../compiler/diagnostics.js';
import type { WorldEvent } from './events/events.js';

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

/** One failure of a world listener: the error it threw and the event it was handling. */
export interface ListenerFailure {
  readonly error: unknown;
  readonly event: WorldEvent;
}

/**
 * Listeners threw while the world delivered events. Thrown by `flush()` (and
 * so by `step()` / `tick()`) only after every event went to every listener;
 * `cause` is the first error, `failures` has each with its event. A world
 * with `onListenerError(handler)` reports them there instead and throws nothing.
 */
export class ListenerError extends WorldError {
  override readonly name = 'ListenerError';
  constructor(readonly failures: readonly ListenerFailure[]) {
    const first = failures[0]!;
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : '';
    super(`A world listener threw on a ${first.event.type} event: ${messageOf(first.error)}${more}`, { cause: first.error });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
