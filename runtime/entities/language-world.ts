/**
 * What the language service knows of a game: its host API and its breeds
 * (compiler/service/world.ts), built from a loaded BreedRegistry. The
 * playground, the LSP server and the CLI all build it here.
 */
import type { BreedSummary, PropertyDoc, ServiceWorld } from '../../compiler/service/world.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import type { Breed, BreedRegistry } from './breeds.js';
import { ENTITY_FIELDS } from './entity-fields.js';

/** The runtime's built-in entity properties, with their docs (entity-fields.ts). */
export const ENTITY_PROPERTY_DOCS: readonly PropertyDoc[] = ENTITY_FIELDS.map(({ name, doc }) => ({ name, doc }));

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
