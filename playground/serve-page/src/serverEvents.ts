/**
 * The server's `events` message on the page: each event as the runtime's
 * own WorldEvent with the page's local entity numbers (what the shared
 * effects draw: damage numbers, speech bubbles, particles, beams), and as a
 * line for the page's log (the runtime's own description, naming entities
 * by their global ids). Which fields hold entities is read from the
 * runtime's event declarations, not listed here again.
 */
import type { ClientWorldEvent } from '../../../server/protocol.js';
import { describeEvent, type WorldEvent } from '../../../runtime/events/events.js';
import { EventTable } from '../../../runtime/events/event-table.js';
import type { ZoneView } from './zoneView.js';

/** The names of an event type's entity fields (none for a type the runtime does not declare). */
function entityFields(type: string): string[] {
  const declaration = EventTable.BUILT_IN.get(type);
  if (declaration === undefined) return [];
  return Object.entries(declaration.fields)
    .filter(([, field]) => field.type === 'entity')
    .map(([name]) => name);
}

/** The event with its entities as the page's local numbers (null stays null), stamped with the view's tick. */
export function localEvent(event: ClientWorldEvent, view: ZoneView): WorldEvent {
  const local: Record<string, unknown> = { tick: view.tick, ...event };
  for (const name of entityFields(event.type)) {
    const value = event[name];
    if (typeof value === 'string') local[name] = view.idOf(value);
  }
  return local as unknown as WorldEvent;
}

/** One line of text for the log: the runtime's description, with the entities' global ids and breeds. */
export function describeServerEvent(event: ClientWorldEvent, view: ZoneView): string {
  // describeEvent only prints an entity's id, so the global id (a string) goes where the runtime has a number.
  const stamped = { tick: view.tick, ...event } as unknown as WorldEvent;
  return describeEvent(stamped, (id) => view.byKey(String(id))?.breed);
}
