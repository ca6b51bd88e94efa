/**
 * How an event type is declared — once, for the built-ins
 * (built-in-events.ts) and for a game's own (`new World({ events })`): its
 * `type`, its fields with their types and docs, one line of description,
 * the text `describeEvent` gives it, whether a snapshot keeps it while it
 * is queued, and whether the per-step cap may drop it. The TypeScript type
 * of the event is derived from the declaration; snapshots, describeEvent,
 * the docs' event table and the world's checks all read the declarations.
 */

/** A world's entity id: 1, 2, 3 … in spawn order, never reused. */
export type EntityId = number;

/** The types an event field may hold (plain JSON, so a snapshot keeps it as it is). */
export type EventFieldType = 'number' | 'string' | 'bool' | 'entity' | 'strings';

export interface EventField {
  readonly type: EventFieldType;
  /** Also null (e.g. `by`: no caster). */
  readonly nullable?: boolean;
  /** For a 'string': the only values it takes. */
  readonly oneOf?: readonly string[];
  /** One line, for the docs. */
  readonly doc?: string;
}

export type EventFields = Readonly<Record<string, EventField>>;

type BaseValue<T extends EventFieldType> = T extends 'number'
  ? number
  : T extends 'string'
    ? string
    : T extends 'bool'
      ? boolean
      : T extends 'entity'
        ? EntityId
        : readonly string[];

/** The value a declared field holds. */
export type FieldValue<F extends EventField> =
  | (F extends { readonly oneOf: readonly (infer V)[] } ? V : BaseValue<F['type']>)
  | (F extends { readonly nullable: true } ? null : never);

/** The fields of an event as values. */
export type FieldValues<F extends EventFields> = { readonly [K in keyof F]: FieldValue<F[K]> };

/** An event as observers get it: its type, the step it happened in, its fields. */
export type EventOf<T extends string, F extends EventFields> = { readonly type: T; readonly tick: number } & FieldValues<F>;

/** How descriptions name things: an entity by breed and id ("Troll#2"), a position, a number. */
export interface DescribeText {
  /** "Troll#2", "#2" when the breed is unknown, "the world" for null. */
  who(id: EntityId | null, breed?: string): string;
  /** "(1.5, 2)". */
  pos(x: number, y: number): string;
  /** A number rounded to two decimals. */
  num(n: number): string;
}

export interface EventDeclaration<T extends string = string, F extends EventFields = EventFields> {
  readonly type: T;
  /** One line: what happened. */
  readonly doc: string;
  readonly fields: F;
  /** The text after "[tick N] " that describeEvent gives. (A method, so a table can hold declarations of any fields.) */
  describe(event: EventOf<T, F>, text: DescribeText): string;
  /** A snapshot keeps it while it is queued; the restored world delivers it at its first flush. */
  readonly keptBySnapshots: boolean;
  /** Past the world's maxEventsPerStep it is dropped and counted (effects); false: always queued (what keeps observers' books right). */
  readonly droppable: boolean;
}

/** The event a declaration (or a union of them) describes. */
export type EventOfDeclaration<D> = D extends EventDeclaration<infer T, infer F> ? EventOf<T, F> : never;

/** Declare an event type: the declaration as given, its TypeScript type derived from `fields`. */
export function declareEvent<const T extends string, const F extends EventFields>(
  declaration: Omit<EventDeclaration<T, F>, 'keptBySnapshots' | 'droppable'> & { readonly keptBySnapshots?: boolean; readonly droppable?: boolean },
): EventDeclaration<T, F> {
  return Object.freeze({ keptBySnapshots: true, droppable: true, ...declaration });
}

/** What is wrong with `fields` as the fields of `declaration`, or null: a missing, unknown or mistyped field. */
export function eventFieldsProblem(declaration: EventDeclaration, fields: Readonly<Record<string, unknown>>): string | null {
  const declared: EventFields = declaration.fields;
  for (const name of Object.keys(fields)) {
    if (name !== 'type' && name !== 'tick' && !Object.hasOwn(declared, name)) {
      return `Event '${declaration.type}' has no field '${name}' (its fields: ${Object.keys(declared).join(', ') || 'none'}).`;
    }
  }
  for (const [name, field] of Object.entries(declared)) {
    const value = fields[name];
    if (!fieldHolds(field, value)) return `Field '${name}' of event '${declaration.type}' must be ${fieldTypeText(field)}, got ${shown(value)}.`;
  }
  return null;
}

function fieldHolds(field: EventField, value: unknown): boolean {
  if (value === null) return field.nullable === true;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string' && (field.oneOf === undefined || field.oneOf.includes(value));
    case 'bool':
      return typeof value === 'boolean';
    case 'entity':
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

/** "a number", "'enter', 'move' or 'leave'", "an entity id or null" … (the docs' wording too). */
export function fieldTypeText(field: EventField): string {
  const base =
    field.oneOf !== undefined
      ? field.oneOf.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')
      : { number: 'a finite number', string: 'a string', bool: 'true or false', entity: 'an entity id', strings: 'a list of strings' }[field.type];
  return field.nullable ? `${base} or null` : base;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
