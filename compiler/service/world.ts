/**
 * What the language service knows besides the source: the game's host API
 * and its breeds, as plain data. The playground builds it from the breeds in
 * its editor, the LSP server and the CLI from `cantrip.json`
 * (runtime/entities/language-world.ts turns a BreedRegistry into this).
 */
import type { HostFunctionSpec } from '../../vm/host.js';

/** A built-in entity property and its one line of docs. */
export interface PropertyDoc {
  readonly name: string;
  readonly doc: string;
}

/** A breed after inheritance: its fields as plain JSON values. */
export interface BreedSummary {
  readonly name: string;
  readonly parent: string | null;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface ServiceWorld {
  readonly hosts: readonly HostFunctionSpec[];
  /** Empty when no breeds are known: then no property is reported as unknown. */
  readonly breeds: readonly BreedSummary[];
  /** The properties every entity has, with docs. */
  readonly entityProperties: readonly PropertyDoc[];
}

/** Every property name an entity can have: the built-in ones and every breed's fields. */
export function entityPropertyNames(world: ServiceWorld): string[] {
  const names = new Set(world.entityProperties.map((p) => p.name));
  for (const breed of world.breeds) for (const field of Object.keys(breed.fields)) names.add(field);
  return [...names];
}

/** `damage(target: entity, amount: number) -> nil`, with `?` on optional params. */
export function hostSignature(spec: HostFunctionSpec): string {
  return `${spec.name}(${hostParameterLabels(spec).join(', ')}) -> ${spec.returns}`;
}

export function hostParameterLabels(spec: HostFunctionSpec): string[] {
  return spec.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`);
}
