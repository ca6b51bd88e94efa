/**
 * Breeds for the playground: the repository's spells/breeds.json by default,
 * loaded with the runtime's own BreedRegistry (so validation is the one the
 * CLI and the game use), turned into summaries for completion and hover.
 */
import { BUILTIN_ENTITY_PROPERTIES, BreedRegistry, type Breed } from '../../runtime/entities/breeds.js';
import { BreedError } from '../../runtime/errors.js';
import type { BreedSummary, PropertyDoc } from './language/completions.js';
import { markerForBreedProblem } from './language/breedsMarkers.js';
import type { MarkerData } from './language/markers.js';
import { errorMessage } from './engine.js';

const breedFiles = import.meta.glob<string>('../../spells/breeds.json', { query: '?raw', import: 'default', eager: true });

export const DEFAULT_BREEDS_JSON: string = Object.values(breedFiles)[0] ?? '{\n  "breeds": []\n}\n';

const PROPERTY_DOCS: Readonly<Record<string, string>> = {
  x: 'Horizontal position (world units).',
  y: 'Vertical position (world units).',
  vx: 'Horizontal velocity (units per second).',
  vy: 'Vertical velocity (units per second).',
  health: 'Current health; the entity dies at 0.',
  maxHealth: 'Health the entity spawned with (from its breed).',
  speed: 'Movement speed (from its breed).',
  radius: 'Body radius (from its breed).',
  interest: 'Area-of-interest range; 0 observes nothing.',
  alive: 'False once the entity despawned or died.',
  breed: "The breed's name, e.g. \"Troll\".",
  id: 'A number that identifies the entity.',
  is: '`e.is("Troll")`: true when the entity is that breed or descends from it.',
};

export const ENTITY_PROPERTIES: readonly PropertyDoc[] = [...BUILTIN_ENTITY_PROPERTIES].map((name) => ({
  name,
  doc: PROPERTY_DOCS[name] ?? 'Entity property.',
}));

export function summarizeBreed(b: Breed): BreedSummary {
  const fields: Record<string, unknown> = { health: b.health, speed: b.speed, radius: b.radius, interest: b.interest };
  for (const [k, v] of b.attributes) fields[k] = v;
  return { name: b.name, parent: b.parent, fields };
}

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
