/**
 * The entities: the pool that holds them (hot fields in typed arrays,
 * generation-checked handles), the breeds they are made from (JSON, with
 * inheritance copied down, checked against a schema), an entity's cold
 * state (fields, modifiers, derived stats) and the references spells hold.
 * This file is the folder's public face (runtime/index.ts re-exports it);
 * the other runtime folders import the files themselves.
 */

export { EntityPool, INDEX_LIMIT, NO_ENTITY, handleIndex, handleGeneration, type EntityHandle, type ExhaustionPolicy, type EntityPoolOptions } from './entity-pool.js';
export { EntityRef } from './entity-ref.js';
export { ENTITY_FIELDS, HOT_FIELDS, type EntityFieldDeclaration, type FieldStorage, type HotField } from './entity-fields.js';
export { BreedRegistry, BUILTIN_ENTITY_PROPERTIES, type Breed, type BreedData, type BreedDefinition, type BreedSpells, type AttributeValue } from './breeds.js';
export { BREED_SCHEMA, BREED_SPELL_SLOTS } from './breed-schema.js';
export { findJsonSyntaxError, type JsonSyntaxProblem } from './json-syntax.js';
