/**
 * The summary `cantrip serve --ticks T --summary FILE` writes: each zone with
 * the process that ran it, its tick and its entities; hand-overs, entities
 * recovered after a process died, and world events by type. Several
 * processes each summarize their zones; the supervisor merges the parts.
 */

import { addCounts, type ServeSummary } from './serve-options.js';
import type { ZoneHost } from './zone-host.js';

export function summarize(host: ZoneHost): ServeSummary {
  const events: Record<string, number> = {};
  let handovers = 0;
  let recovered = 0;
  const zones = [...host.zones.values()].map((z) => {
    addCounts(events, z.eventCounts);
    handovers += z.handover.handoversOut;
    recovered += z.recovered;
    return z.summary();
  });
  return { zones, handovers, recovered, events };
}

/** One summary of the parts, zones in grid order. */
export function mergeSummaries(parts: readonly ServeSummary[], zoneOrder: readonly string[]): ServeSummary {
  const events: Record<string, number> = {};
  for (const p of parts) addCounts(events, Object.entries(p.events));
  const zones = parts.flatMap((p) => p.zones).sort((a, b) => zoneOrder.indexOf(a.id) - zoneOrder.indexOf(b.id));
  return {
    zones,
    handovers: parts.reduce((n, p) => n + p.handovers, 0),
    recovered: parts.reduce((n, p) => n + p.recovered, 0),
    events,
  };
}
