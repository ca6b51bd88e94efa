/**
 * What `cantrip serve` was asked to do (bin/commands/serve.ts parses it),
 * and the summary `--ticks T --summary FILE` writes.
 */

import type { HostFunction } from '../vm/host.js';
import type { GridSize } from './zone-grid.js';

export interface ServeOptions {
  readonly scenarioFile: string;
  /** The game's own host functions (from `hostsModule`, and those `apiFile` only declares). */
  readonly hosts: readonly HostFunction[];
  /** `--hosts MODULE` and `--api FILE`, as given: worker processes load them again. */
  readonly hostsModule?: string;
  readonly apiFile?: string;
  readonly port: number;
  readonly zones: GridSize;
  readonly processes: number;
  readonly redis?: string;
  /** Step every zone this many ticks as fast as it can, write `summary`, exit. */
  readonly ticks?: number;
  readonly summary?: string;
  /** Reload changed spell files in every zone of every process (`--watch`). */
  readonly watch?: boolean;
  /** Seconds between saves of each zone's entities (what a survivor takes a dead process's zones over from). */
  readonly snapshotEvery: number;
  /** Seconds an avatar waits for its player to come back (dropped connection, zone taken over) before it leaves the world. */
  readonly rejoinGrace: number;
  /** Milliseconds a hand-over waits for an answer before it reads the owner record. */
  readonly handoverTimeoutMs: number;
  /** The Redis key prefix of this server's world. */
  readonly namespace: string;
  /** The browser page's folder. */
  readonly pageDir: string;
  /** With --processes: the zones this command deals to its workers (other machines serve the rest); all when left out. */
  readonly only?: readonly string[];
  /** The host name clients reach this machine by: seat reservations carry `<host>:<port>` (default localhost). */
  readonly publicHost?: string;
}

export interface SummaryZone {
  readonly id: string;
  readonly pid: number;
  readonly tick: number;
  /** Scenario names, or ids for entities without one. */
  readonly entities: (string | number)[];
}

export interface ServeSummary {
  readonly zones: SummaryZone[];
  /** Hand-overs completed. */
  readonly handovers: number;
  /** Entities taken back from a save after their zone's process died. */
  readonly recovered: number;
  /** World events of each type, over every zone. */
  readonly events: Record<string, number>;
}

/** Add event counts into a total. */
export function addCounts(total: Record<string, number>, counts: Iterable<[string, number]>): void {
  for (const [type, n] of counts) total[type] = (total[type] ?? 0) + n;
}
