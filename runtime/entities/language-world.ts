/**
 * What the language service knows of a game: its host API and its breeds
 * (compiler/service/world.ts), built from a loaded BreedRegistry. The
 * playground, the LSP server and the CLI all build it here.
 */
import type { BreedSummary, PropertyDoc, ServiceWorld } from '../../compiler/service/world.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import { BUILTIN_ENTITY_PROPERTIES, type Breed, type BreedRegistry } from './breeds.js';

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

/** The runtime's built-in entity properties, with their docs. */
export const ENTITY_PROPERTY_DOCS: readonly PropertyDoc[] = [...BUILTIN_ENTITY_PROPERTIES].map((name) => ({
  name,
  doc: PROPERTY_DOCS[name] ?? 'Entity property.',
}));

/** A breed's fields after inheritance, as plain data. */
export function breedSummary(b: Breed): BreedSummary {
  const fields: Record<string, unknown> = { health: b.health, speed: b.speed, radius: b.radius, interest: b.interest };
  for (const [k, v] of b.attributes) fields[k] = v;
  return { name: b.name, parent: b.parent, fields };
}

/** The service's world: the hosts and every breed (abstract ones too: `e.is("Monster")` names them). */
export function languageWorld(hosts: readonly HostFunctionSpec[], breeds: BreedRegistry | null): ServiceWorld {
  return {
    hosts,
    breeds: breeds ? breeds.breeds.map(breedSummary) : [],
    entityProperties: ENTITY_PROPERTY_DOCS,
  };
}
