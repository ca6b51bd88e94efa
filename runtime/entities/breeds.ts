/**
 * Breeds — the Type Object pattern. A breed is data: stats, looks, tags,
 * the spells that drive it and free-form attributes spells read
 * (`target.armor`). Breeds inherit from a `parent`; inheritance is copied
 * down once at load, so looking a field up at run time never walks a chain.
 *
 * Breeds come from one or more sources (files, or data objects), as
 * cantrip.json lists them: a later source adds breeds, and its breeds may
 * name a parent from an earlier one; a breed defined in two sources is an
 * error naming both.
 *
 * Loading never throws anything but BreedError, whose message names the
 * breed and the field. Attribute names are kept in Maps, so `__proto__` or
 * `constructor` in a breed file are ordinary data.
 */

import { Ajv, type ErrorObject } from 'ajv';
import { BREED_SCHEMA, BREED_SPELL_SLOTS } from './breed-schema.js';
import { BreedError } from '../errors.js';
import { parseJson } from './json-syntax.js';
import { BUILTIN_ENTITY_PROPERTIES } from './entity-fields.js';

export type AttributeValue = number | string | boolean;
export type BreedSpellSlot = (typeof BREED_SPELL_SLOTS)[number];
export type BreedSpells = Readonly<Partial<Record<BreedSpellSlot, string>>>;

export interface Breed {
  readonly name: string;
  /** Position in the registry; what the entity pool stores. */
  readonly index: number;
  readonly parent: string | null;
  /** Abstract breeds only exist to be inherited from; they cannot be spawned. */
  readonly abstract: boolean;
  readonly description: string;
  readonly health: number;
  readonly speed: number;
  readonly radius: number;
  /** Area-of-interest range; 0 means it observes nothing. */
  readonly interest: number;
  readonly color: string;
  readonly glyph: string;
  readonly tags: readonly string[];
  readonly spells: BreedSpells;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
  /** Its own name, then its parent's, up to the root. */
  readonly ancestry: readonly string[];
}

export { BUILTIN_ENTITY_PROPERTIES } from './entity-fields.js';

/** Values a root breed gets for fields it leaves out. */
const ROOT_DEFAULTS = {
  health: 10,
  speed: 0,
  radius: 0.5,
  interest: 0,
  color: '#9aa0a6',
  glyph: '?',
  description: '',
} as const;

const SCALAR_FIELDS = ['health', 'speed', 'radius', 'interest', 'color', 'glyph', 'description'] as const;

/** One breed as written in a breeds file (BREED_SCHEMA is the exact shape; a field left out is inherited). */
export interface BreedDefinition {
  readonly name: string;
  readonly parent?: string;
  readonly abstract?: boolean;
  readonly description?: string;
  readonly health?: number;
  readonly speed?: number;
  readonly radius?: number;
  readonly interest?: number;
  readonly color?: string;
  readonly glyph?: string;
  readonly tags?: readonly string[];
  readonly spells?: BreedSpells;
  readonly attributes?: Readonly<Record<string, AttributeValue>>;
}

/** A breeds file's data, as `world.loadBreeds` and `BreedRegistry.fromData` take it. */
export interface BreedData {
  readonly $schema?: string;
  readonly breeds: readonly BreedDefinition[];
}

type BreedSource = BreedDefinition;

/** One source of breeds and the name errors give it: a file name, or `breeds #2` for the second one loaded. */
interface NamedBreedData {
  readonly name: string;
  readonly data: BreedData;
}

/** A Map that refuses changes once built: a breed's attributes are shared by every entity of it. */
class FrozenMap<K, V> extends Map<K, V> {
  private frozen = false;
  constructor(entries: Iterable<readonly [K, V]>) {
    super(entries);
    this.frozen = true;
  }
  override set(key: K, value: V): this {
    if (this.frozen) throw new TypeError('Breed attributes are read-only.');
    return super.set(key, value);
  }
  override delete(): boolean {
    throw new TypeError('Breed attributes are read-only.');
  }
  override clear(): void {
    throw new TypeError('Breed attributes are read-only.');
  }
}

let validator: ReturnType<Ajv['compile']> | null = null;
function validateShape(data: unknown): readonly ErrorObject[] | null {
  // Compiled once, on the first load. validateSchema: false skips checking BREED_SCHEMA against the
  // JSON Schema meta-schema on every start (compiling the meta-schema cost more than the schema
  // itself, ~40 ms of a page's start-up); the schema is fixed, and breeds.test.ts checks it once.
  validator ??= new Ajv({ allErrors: false, strict: true, validateSchema: false }).compile(BREED_SCHEMA);
  return validator(data) ? null : (validator.errors ?? []);
}

export class BreedRegistry {
  private readonly byName = new Map<string, Breed>();
  private readonly ancestrySets: ReadonlySet<string>[];

  private constructor(
    /** The sources, checked and copied, in the order they were loaded. */
    private readonly parts: readonly NamedBreedData[],
  ) {
    const all = parts.flatMap((part) => part.data.breeds);
    this.breeds = Object.freeze(resolveAll(all, parts.flatMap((part) => part.data.breeds.map(() => part.name))));
    // One source is kept as given ($schema included); several are one list, which loads back as the same breeds.
    this.source = parts.length === 1 ? parts[0]!.data : { breeds: all };
    for (const b of this.breeds) this.byName.set(b.name, b);
    this.ancestrySets = this.breeds.map((b) => new Set(b.ancestry));
  }

  readonly breeds: readonly Breed[];
  /** The validated source data (every source's breeds together), kept for snapshots. */
  readonly source: BreedData;

  /** How many sources the breeds came from. */
  get sourceCount(): number {
    return this.parts.length;
  }

  /** Parse and load a breeds file. Throws BreedError (with line/column for syntax errors). */
  static fromJson(text: string, name = 'breeds #1'): BreedRegistry {
    return new BreedRegistry([checked(parseBreedsJson(text), name)]);
  }

  /** Load already-parsed breed data (a BreedData; anything else is checked and refused with a BreedError). */
  static fromData(data: BreedData | unknown, name = 'breeds #1'): BreedRegistry {
    return new BreedRegistry([checked(data, name)]);
  }

  /**
   * These breeds and those of one more source (JSON text or data), as a new
   * registry: the new breeds come after these, may name them as parents, and
   * may not reuse their names (a BreedError naming both sources).
   */
  adding(breeds: string | BreedData | unknown, name = `breeds #${this.parts.length + 1}`): BreedRegistry {
    return new BreedRegistry([...this.parts, checked(typeof breeds === 'string' ? parseBreedsJson(breeds) : breeds, name)]);
  }

  get(name: string): Breed | undefined {
    return this.byName.get(name);
  }

  at(index: number): Breed {
    const breed = this.breeds[index];
    if (breed === undefined) throw new RangeError(`No breed at index ${index}.`);
    return breed;
  }

  /** Every property name an entity of these breeds can have: the built-in ones and every breed's attributes (for the compiler's warnings). */
  entityPropertyNames(): string[] {
    const names = new Set(BUILTIN_ENTITY_PROPERTIES);
    for (const breed of this.breeds) for (const name of breed.attributes.keys()) names.add(name);
    return [...names];
  }

  /** True when the breed is `name` or descends from it — `e.is("Troll")`. */
  isA(breedIndex: number, name: string): boolean {
    return this.ancestrySets[breedIndex]?.has(name) ?? false;
  }

  /** Every spell a breed names must exist in the loaded spells. Reported on the breed that declares it. */
  checkSpells(defined: ReadonlySet<string>): void {
    const sources = this.source.breeds;
    for (const src of sources) {
      for (const slot of BREED_SPELL_SLOTS) {
        const spell = src.spells?.[slot];
        if (spell !== undefined && !defined.has(spell)) {
          throw new BreedError(
            `Breed '${src.name}': field 'spells.${slot}' names spell '${spell}', which the loaded spells do not define.`,
            src.name,
            `spells.${slot}`,
          );
        }
      }
    }
  }
}

/** Breeds JSON text as data, or a BreedError with the line and column of a syntax error. */
function parseBreedsJson(text: string): unknown {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.problem;
    throw new BreedError(`Breeds file: JSON syntax error at line ${line}, column ${column}: ${message}`, null, null, line, column);
  }
  return parsed.value;
}

/** One source checked against BREED_SCHEMA and copied: the caller may change its object later, and the registry (and snapshots) must not follow. */
function checked(data: unknown, name: string): NamedBreedData {
  const errors = validateShape(data);
  if (errors) throw shapeError(data, pickError(errors));
  return { name, data: structuredClone(data) as BreedData };
}

/** Resolve inheritance: parents first, each field copied down when the child leaves it out. `origins[i]` names the source of `sources[i]`. */
function resolveAll(sources: readonly BreedSource[], origins: readonly string[]): Breed[] {
  const sourceByName = new Map<string, BreedSource>();
  const originByName = new Map<string, string>();
  for (const [i, src] of sources.entries()) {
    const earlier = originByName.get(src.name);
    if (earlier !== undefined) {
      const origin = origins[i]!;
      const where = earlier === origin ? 'duplicates an earlier breed' : `is defined in both ${earlier} and ${origin}`;
      throw new BreedError(`Breed '${src.name}': field 'name' ${where}.`, src.name, 'name');
    }
    sourceByName.set(src.name, src);
    originByName.set(src.name, origins[i]!);
  }
  const resolved = new Map<string, Omit<Breed, 'index'>>();
  const resolving = new Set<string>();
  const resolve = (src: BreedSource, path: readonly string[]): Omit<Breed, 'index'> => {
    const done = resolved.get(src.name);
    if (done) return done;
    if (resolving.has(src.name)) {
      const cycle = [...path.slice(path.indexOf(src.name)), src.name].join(' → ');
      throw new BreedError(`Breed '${src.name}': field 'parent' makes an inheritance cycle: ${cycle}.`, src.name, 'parent');
    }
    resolving.add(src.name);
    let parent: Omit<Breed, 'index'> | null = null;
    if (src.parent !== undefined) {
      const parentSource = sourceByName.get(src.parent);
      if (!parentSource) {
        throw new BreedError(`Breed '${src.name}': field 'parent' names unknown breed '${src.parent}'.`, src.name, 'parent');
      }
      parent = resolve(parentSource, [...path, src.name]);
    }
    const breed = inherit(src, parent);
    resolving.delete(src.name);
    resolved.set(src.name, breed);
    return breed;
  };
  // Resolving depth-first with an explicit path would recurse per ancestor; cap chains to keep that bounded.
  for (const src of sources) {
    const depth = chainDepth(src, sourceByName);
    if (depth > 256) {
      throw new BreedError(`Breed '${src.name}': field 'parent' chain is deeper than 256 breeds.`, src.name, 'parent');
    }
  }
  // Frozen: a breed is shared by every entity of it, so changing one would change every later spawn.
  return sources.map((src, index) => {
    const breed = { ...resolve(src, []), index };
    return Object.freeze({ ...breed, attributes: new FrozenMap(breed.attributes) });
  });
}

function chainDepth(src: BreedSource, byName: ReadonlyMap<string, BreedSource>): number {
  const seen = new Set<string>();
  let depth = 0;
  for (let b: BreedSource | undefined = src; b && !seen.has(b.name); b = b.parent ? byName.get(b.parent) : undefined) {
    seen.add(b.name);
    depth++;
  }
  return depth;
}

function inherit(src: BreedSource, parent: Omit<Breed, 'index'> | null): Omit<Breed, 'index'> {
  const scalar = <K extends (typeof SCALAR_FIELDS)[number]>(field: K): Breed[K] =>
    (src[field] ?? parent?.[field] ?? ROOT_DEFAULTS[field]) as Breed[K];
  const spells: Partial<Record<BreedSpellSlot, string>> = {};
  for (const slot of BREED_SPELL_SLOTS) {
    const spell = src.spells?.[slot] ?? parent?.spells[slot];
    if (spell !== undefined) spells[slot] = spell;
  }
  const attributes = new Map<string, AttributeValue>(parent?.attributes ?? []);
  if (src.attributes) {
    for (const key of Object.keys(src.attributes)) {
      if (BUILTIN_ENTITY_PROPERTIES.has(key)) {
        throw new BreedError(
          `Breed '${src.name}': field 'attributes.${key}' would hide the built-in entity property '${key}'.`,
          src.name,
          `attributes.${key}`,
        );
      }
      attributes.set(key, src.attributes[key]!);
    }
  }
  return {
    name: src.name,
    parent: src.parent ?? null,
    abstract: src.abstract ?? false,
    health: scalar('health'),
    speed: scalar('speed'),
    radius: scalar('radius'),
    interest: scalar('interest'),
    color: scalar('color'),
    glyph: scalar('glyph'),
    description: scalar('description'),
    tags: Object.freeze(src.tags ? [...src.tags] : [...(parent?.tags ?? [])]),
    spells: Object.freeze(spells),
    attributes,
    ancestry: Object.freeze([src.name, ...(parent?.ancestry ?? [])]),
  };
}

/** ajv lists the failing branches of an anyOf (and the name check of propertyNames) before the summary; the summary reads better. */
function pickError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return errors.find((e) => e.keyword === 'propertyNames' || e.keyword === 'anyOf') ?? errors[0];
}

/** Turn ajv's first error into a BreedError that names the breed and the field. */
function shapeError(data: unknown, error: ErrorObject | undefined): BreedError {
  if (!error) return new BreedError('Breeds file: invalid data.');
  const path = error.instancePath.split('/').slice(1).map(unescapePointer);
  if (path[0] !== 'breeds' || path.length < 2) {
    // An unknown top-level key must be named (it was "Breeds file: is not a breed field", found by tests/sandbox).
    const unknown = error.keyword === 'additionalProperties' && path.length === 0 ? String((error.params as Record<string, unknown>).additionalProperty) : null;
    if (unknown !== null) return new BreedError(`Breeds file: field '${unknown}' is unknown (a breeds file has 'breeds' and '$schema').`, null, unknown);
    const detail = error.keyword === 'required' ? "must have a 'breeds' array" : describe(error);
    return new BreedError(`Breeds file: ${path.length ? `'${path.join('.')}' ` : ''}${detail}.`);
  }
  const position = Number(path[1]);
  const rawName = (data as { breeds: { name?: unknown }[] }).breeds[position]?.name;
  const breed = typeof rawName === 'string' && rawName.length > 0 ? rawName : null;
  const label = breed !== null ? `Breed '${breed}'` : `Breed #${position + 1}`;
  const fieldPath = path.slice(2);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') fieldPath.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') fieldPath.push(String(params.additionalProperty));
  if (error.keyword === 'propertyNames') fieldPath.push(String(params.propertyName));
  const field = fieldPath.length ? fieldPath.join('.') : null;
  const where = field !== null ? `: field '${field}'` : '';
  return new BreedError(`${label}${where} ${describe(error)}.`, breed, field);
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${params.type === 'object' || params.type === 'array' ? 'an' : 'a'} ${params.type}`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return "is not a breed field (put free-form values in 'attributes')";
    case 'propertyNames':
      return 'is not a valid attribute name (use letters, digits and _)';
    case 'anyOf':
      return 'must be a number, a string or a boolean';
    case 'pattern':
      return 'must be a name made of letters, digits and _';
    default:
      return error.message ?? 'is invalid';
  }
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
