/**
 * How the world painter draws a breed: the `color` and `glyph` its breeds
 * file gives it (the runtime fills in its defaults), grey and '?' for a breed
 * it was not told of. The playground reads them from its World's breeds, the
 * zone server's page from the server's `welcome` — one rule for both.
 */

export interface BreedLookData {
  readonly color: string;
  readonly glyph: string;
}

/** The runtime's defaults for a breed that names neither (runtime/entities/breeds.ts). */
export const UNKNOWN_BREED_LOOK: BreedLookData = { color: '#9aa0a6', glyph: '?' };

export function breedLookOf(breed: BreedLookData | null | undefined): BreedLookData {
  return breed ?? UNKNOWN_BREED_LOOK;
}
