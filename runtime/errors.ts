/**
 * Errors the game runtime reports to its embedder. Spell-level failures use
 * the VM's HostError / SpellRuntimeError; these are for bad data and misuse.
 */

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
