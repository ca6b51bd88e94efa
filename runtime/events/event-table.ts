/**
 * A world's event types: the built-ins, then the game's own
 * (`new World({ events })`), checked once when the world is made. The
 * world reads it to stamp and check a game's events, to cap a step's
 * events, to describe them and to keep them in snapshots.
 */

import { BUILT_IN_EVENTS } from './built-in-events.js';
import { eventFieldsProblem, type EventDeclaration, type EventField } from './event-declaration.js';

/** What a game event type may be called: words of letters, digits, '-' and '_', joined by '.' or ':' (e.g. 'quest-done', 'shop:sale'). */
const TYPE_NAME = /^[A-Za-z][A-Za-z0-9_-]*(?:[.:][A-Za-z0-9_-]+)*$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FIELD_TYPES: ReadonlySet<string> = new Set(['number', 'string', 'bool', 'entity', 'strings']);

/** An event of any declared type, as a queue holds it (its fields as declared). */
export interface DeclaredEvent {
  readonly type: string;
  readonly tick: number;
  readonly [field: string]: unknown;
}

export class EventTable {
  /** Every declaration: the built-ins, then the game's. */
  readonly all: readonly EventDeclaration[];
  private readonly byType = new Map<string, EventDeclaration>();
  private readonly neverDropped = new Set<string>();

  /** The game's declarations are checked: a problem throws an Error whose message names the event and what is wrong (the world wraps it). */
  constructor(readonly game: readonly EventDeclaration[] = []) {
    this.all = [...BUILT_IN_EVENTS, ...game];
    for (const d of BUILT_IN_EVENTS) this.add(d);
    for (const d of game) {
      const problem = declarationProblem(d, this.byType);
      if (problem !== null) throw new Error(problem);
      this.add(d);
    }
  }

  /** The built-in events alone. */
  static readonly BUILT_IN = new EventTable();

  get(type: string): EventDeclaration | undefined {
    return this.byType.get(type);
  }

  /** Whether the per-step cap may drop events of this type (unknown types: yes). */
  droppable(type: string): boolean {
    return !this.neverDropped.has(type);
  }

  /** Whether `type` is one of the game's (not a built-in). */
  isGameEvent(type: string): boolean {
    const d = this.byType.get(type);
    return d !== undefined && this.game.includes(d);
  }

  /** The event a game emits, stamped with the tick; or what is wrong with it. */
  stamp(declaration: EventDeclaration, fields: Readonly<Record<string, unknown>>, tick: number): DeclaredEvent | string {
    const known = this.byType.get(declaration?.type);
    if (known === undefined || known !== declaration || !this.game.includes(known)) {
      const name = typeof declaration?.type === 'string' ? `'${declaration.type}'` : 'this event';
      return `The world has no game event ${name}: declare it in the world's \`events\` option (new World({ events })) and emit that declaration.`;
    }
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return `The fields of event '${known.type}' must be an object.`;
    const problem = eventFieldsProblem(known, fields);
    if (problem !== null) return problem;
    const event: Record<string, unknown> = { type: known.type, tick };
    for (const name of Object.keys(known.fields)) event[name] = copyField(fields[name]);
    return event as DeclaredEvent;
  }

  private add(d: EventDeclaration): void {
    this.byType.set(d.type, d);
    if (!d.droppable) this.neverDropped.add(d.type);
  }
}

/** What is wrong with a game's event declaration, or null. */
function declarationProblem(d: EventDeclaration, known: ReadonlyMap<string, EventDeclaration>): string | null {
  if (typeof d !== 'object' || d === null) return 'An event declaration must be an object made by declareEvent().';
  if (typeof d.type !== 'string' || !TYPE_NAME.test(d.type)) {
    return `Event type ${JSON.stringify(d.type)} is not a valid name (letters, digits, '-' and '_', parts joined by '.' or ':').`;
  }
  const name = `Event '${d.type}'`;
  if (known.has(d.type)) return `${name} is declared twice, or is a built-in event's type.`;
  if (typeof d.describe !== 'function') return `${name} has no describe function.`;
  if (typeof d.doc !== 'string') return `${name} has no doc text.`;
  if (typeof d.fields !== 'object' || d.fields === null) return `${name} has no fields object.`;
  for (const [field, spec] of Object.entries(d.fields) as [string, EventField][]) {
    if (!FIELD_NAME.test(field) || field === 'type' || field === 'tick') return `${name} cannot have a field named '${field}'.`;
    if (typeof spec !== 'object' || spec === null || !FIELD_TYPES.has(spec.type)) {
      return `Field '${field}' of ${name.toLowerCase()} must have a type: ${[...FIELD_TYPES].map((t) => `'${t}'`).join(', ')}.`;
    }
    if (spec.oneOf !== undefined && (spec.type !== 'string' || !Array.isArray(spec.oneOf) || !spec.oneOf.every((v) => typeof v === 'string'))) {
      return `Field '${field}' of ${name.toLowerCase()}: 'oneOf' lists strings, for a field of type 'string'.`;
    }
  }
  return null;
}

/** The event's own copy of a field (a list is copied, so the game cannot change a queued event). */
function copyField(value: unknown): unknown {
  return Array.isArray(value) ? Object.freeze([...(value as unknown[])]) : value;
}
