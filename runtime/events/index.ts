/**
 * World events (Event Queue and Observer): each event type declared once —
 * the world's own in built-in-events.ts, a game's own through
 * `new World({ events })` — with its fields, its description and how
 * snapshots and the step cap treat it (event-declaration.ts); a world's
 * table of them (event-table.ts); describeEvent and EntityNames for
 * printing them (events.ts); the docs' table generated from them
 * (event-doc.ts).
 * This file is the folder's public face (runtime/index.ts re-exports it).
 */

export {
  describeEvent,
  EntityNames,
  type BreedLookup,
  type WorldEvent,
  type WorldEventType,
  type WorldListener,
  type ListenerErrorHandler,
  type EntityId,
  type DespawnReason,
  type CastCancelReason,
  type AoiEventKind,
} from './events.js';
export {
  declareEvent,
  type EventDeclaration,
  type EventField,
  type EventFields,
  type EventFieldType,
  type EventOf,
  type EventOfDeclaration,
  type FieldValues,
  type DescribeText,
} from './event-declaration.js';
export { BUILT_IN_EVENTS } from './built-in-events.js';
export { EventTable, type DeclaredEvent } from './event-table.js';
