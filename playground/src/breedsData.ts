/**
 * Breeds for the playground: the repository's spells/breeds.json by default,
 * loaded with the runtime's own BreedRegistry (so validation is the one the
 * CLI and the game use; runtime/entities/language-world.ts turns the registry into
 * what completion and hover read).
 */
import { BreedRegistry } from '../../runtime/entities/breeds.js';
import { BreedError } from '../../runtime/errors.js';
import { markerForBreedProblem } from './language/breedsMarkers.js';
import type { MarkerData } from './language/markers.js';
import { errorMessage } from './errorMessage.js';

export { DEFAULT_BREEDS_JSON } from './defaultBreeds.js';

export type BreedsLoad = { ok: true; registry: BreedRegistry } | { ok: false; markers: MarkerData[] };

/** Never throws: a bad file becomes a marker on the right line. */
export function loadBreedsJson(text: string): BreedsLoad {
  try {
    return { ok: true, registry: BreedRegistry.fromJson(text) };
  } catch (e) {
    const problem =
      e instanceof BreedError
        ? { message: e.message, breed: e.breed, field: e.field, line: e.line, column: e.column }
        : { message: `Breeds file: ${errorMessage(e)}`, breed: null, field: null, line: null, column: null };
    return { ok: false, markers: [markerForBreedProblem(text, problem)] };
  }
}
