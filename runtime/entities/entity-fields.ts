/**
 * The entity's built-in fields, each declared once (as events are in
 * runtime/events): its name, where the pool keeps it (a typed array of which
 * kind, or nowhere: computed), whether it is one of the numbers `world.stat`
 * reads, whether a spell may assign it, whether buffs may modify it, and its
 * docs line. The pool's arrays, the snapshot's pool arrays, the typed view
 * of an entity (EntityView), the names breed attributes may not hide, what a
 * buff may change and the language service's property docs are derived here.
 */

/** The typed array a pool field lives in. */
export type FieldStorage = 'Float64' | 'Int32';

export interface EntityFieldDeclaration {
  readonly name: string;
  /** The pool's typed array for it; null: computed on read, not stored per slot. */
  readonly storage: FieldStorage | null;
  /** A number every entity has: `world.stat` reads it, EntityView shows it, a snapshot checks it is finite. */
  readonly stat: boolean;
  /** A spell may assign it (`e.health = 0`); otherwise assigning it is an error. */
  readonly writable: boolean;
  /** `buff(e, name, …)` may modify it (numeric breed attributes are buffable too). */
  readonly buffable: boolean;
  /** One line, for the docs and the editor's hover: what reading it gives. */
  readonly doc: string;
  /** For a writable field, what assigning it does (the docs' table). */
  readonly write?: string;
}

/** A number every entity has, in a Float64Array of the pool, that spells may assign. */
const number = <const N extends string, const B extends boolean = false>(name: N, doc: string, write: string, buffable?: B) =>
  ({ name, storage: 'Float64', stat: true, writable: true, buffable: (buffable ?? false) as B, doc, write }) as const;
const readOnly = <const N extends string, const S extends FieldStorage | null>(name: N, storage: S, doc: string) =>
  ({ name, storage, stat: false, writable: false, buffable: false, doc }) as const;

/** Every built-in entity field, in the order the docs list them and the pool allocates them. */
export const ENTITY_FIELDS = [
  number('x', 'Horizontal position (world units).', 'moves it now (clamped to the world)'),
  number('y', 'Vertical position (world units).', 'moves it now (clamped to the world)'),
  number('vx', 'Horizontal velocity (units per second).', 'sets it'),
  number('vy', 'Vertical velocity (units per second).', 'sets it'),
  number('health', 'Current health; the entity dies at 0.', 'clamped to 0..maxHealth; 0 kills; seen by observers as damage / heal'),
  number('maxHealth', 'Health the entity spawned with (from its breed), plus buffs.', 'sets the base; a lower maxHealth clamps health (a damage event; 0 kills)', true),
  number('speed', 'Movement speed (from its breed), plus buffs.', 'sets the base (≥ 0)', true),
  number('radius', 'Body radius (from its breed).', 'sets it (≥ 0)'),
  number('interest', 'Area-of-interest range (from its breed), plus buffs; 0 observes nothing.', 'sets the base (≥ 0; the range stays within maxInterest)', true),
  readOnly('alive', null, 'False once the entity despawned or died — never an error.'),
  readOnly('breed', 'Int32', 'The breed\'s name, e.g. "Troll" (the pool keeps its index in the breed registry).'),
  readOnly('id', null, 'A number that identifies the entity.'),
  readOnly('is', null, '`e.is("Troll")`: true when the entity is that breed, descends from it or has that tag.'),
] as const satisfies readonly EntityFieldDeclaration[];

type Declared = (typeof ENTITY_FIELDS)[number];

/** The numbers every entity has, kept in the pool's typed arrays or derived from them: what `world.stat(id, name)` reads. */
export type HotField = Extract<Declared, { readonly stat: true }>['name'];
/** A field the pool keeps a typed array of. */
export type PoolField = Extract<Declared, { readonly storage: FieldStorage }>['name'];
type StorageOf<N extends PoolField> = Extract<Declared, { readonly name: N }>['storage'];
/** The pool's typed array of each pool field. */
export type PoolFieldArrays = { [N in PoolField]: StorageOf<N> extends 'Int32' ? Int32Array : Float64Array };
/** Hot fields no buff changes: they travel as they are (a buffable one travels as its base and the buffs). */
export type PlainHotField = Exclude<HotField, Extract<Declared, { readonly buffable: true }>['name']>;
/** The hot numbers of an entity by name (EntityView's numbers). */
export type HotFieldValues = { readonly [N in HotField]: number };

const declared: readonly EntityFieldDeclaration[] = ENTITY_FIELDS;

export const HOT_FIELDS = declared.filter((f) => f.stat).map((f) => f.name) as readonly HotField[];
export const PLAIN_HOT_FIELDS = declared.filter((f) => f.stat && !f.buffable).map((f) => f.name) as readonly PlainHotField[];
export const POOL_FIELDS = declared.filter((f) => f.storage !== null).map((f) => f.name) as readonly PoolField[];
/** Each pool field's typed-array constructor, in POOL_FIELDS order. */
export const POOL_FIELD_ARRAYS: readonly (Float64ArrayConstructor | Int32ArrayConstructor)[] = declared
  .filter((f) => f.storage !== null)
  .map((f) => (f.storage === 'Int32' ? Int32Array : Float64Array));

/** Entity properties the runtime provides; breed attributes may not hide them. */
export const BUILTIN_ENTITY_PROPERTIES: ReadonlySet<string> = new Set(declared.map((f) => f.name));
/** Built-in fields a buff may change (besides numeric breed attributes). */
export const BUFFABLE_FIELDS: ReadonlySet<string> = new Set(declared.filter((f) => f.buffable).map((f) => f.name));
/** Built-in fields a spell may not assign. */
export const READ_ONLY_FIELDS: ReadonlySet<string> = new Set(declared.filter((f) => !f.writable).map((f) => f.name));

const HOT_FIELD_NAMES: ReadonlySet<string> = new Set(HOT_FIELDS);

export function isHotField(name: string): name is HotField {
  return HOT_FIELD_NAMES.has(name);
}
