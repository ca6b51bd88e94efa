/**
 * The zones one process runs: each built from the scenario (its starting
 * entities) or taken over from the ownership store (a dead process's zone),
 * stepped at the scenario's rate in real time, or T steps as fast as it can
 * (`--ticks`), with the other zones' messages handled between steps.
 */

import type { OwnershipStore } from './ownership-store.js';
import type { ServedScenario } from './served-scenario.js';
import { ZoneRuntime } from './zone.js';
import type { ZoneBus } from './zone-bus.js';
import type { ZoneStatus } from './protocol.js';

export interface ZoneHostOptions {
  readonly served: ServedScenario;
  readonly store: OwnershipStore;
  readonly bus: ZoneBus;
  readonly handoverTimeoutMs: number;
  readonly saveEveryMs: number;
  readonly log: (message: string) => void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ZoneHost {
  readonly zones = new Map<string, ZoneRuntime>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: ZoneHostOptions) {}

  /** Run a zone here: from the scenario's entities, or (`recover`) from what its last owner saved. */
  async addZone(id: string, recover: boolean): Promise<ZoneRuntime> {
    const rect = this.o.served.grid.zone(id);
    if (rect === undefined) throw new Error(`No zone ${id} in this grid.`);
    const zone = new ZoneRuntime({
      grid: this.o.served.grid,
      zone: rect,
      store: this.o.store,
      bus: this.o.bus,
      makeWorld: this.o.served.makeWorld,
      ghostRange: this.o.served.ghostRange,
      handoverTimeoutMs: this.o.handoverTimeoutMs,
      saveEveryMs: this.o.saveEveryMs,
      log: this.o.log,
      casts: this.o.served.casts,
      entityIds: this.o.served.entityIds,
    });
    await zone.connect();
    if (recover) {
      const n = await zone.recover();
      this.o.log(`zone ${id}: taken over in process ${process.pid} from its save at tick ${zone.tick} (${n} entities)`);
    } else {
      for (const e of this.o.served.entities) {
        if (this.o.served.grid.zoneAt(e.x, e.y).id !== id) continue;
        const spawned = await zone.spawn(e.breed, e.x, e.y, e.name);
        // Every zone knows each named entity's id before it spawns (scenario casts name entities of other zones).
        const expected = e.name === undefined ? spawned : this.o.served.entityIds.get(e.name);
        if (spawned !== expected) throw new Error(`Zone ${id}: scenario entity '${e.name}' was spawned as #${spawned}, not #${expected}.`);
      }
      zone.world.flush();
      await zone.saveNow();
    }
    this.zones.set(id, zone);
    return zone;
  }

  /** Step every zone once. */
  stepAll(): void {
    for (const zone of this.zones.values()) zone.step();
  }

  /** Step in real time at the scenario's fixed step (20 Hz for a step of 0.05 s). */
  runRealtime(): void {
    const stepMs = this.o.served.step * 1000;
    let due = Date.now();
    const tick = (): void => {
      const now = Date.now();
      // Catch up a few steps at most: a slow tick must not spiral.
      for (let n = 0; n < 4 && due <= now; n++, due += stepMs) this.stepAll();
      if (due <= now) due = now + stepMs;
      this.timer = setTimeout(tick, Math.max(0, due - Date.now()));
    };
    this.timer = setTimeout(tick, stepMs);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Step every zone until it has run `ticks` steps, as fast as it can, letting messages in between. */
  async runTicks(ticks: number, shouldStop: () => boolean = () => false): Promise<void> {
    for (;;) {
      let stepped = false;
      for (const zone of this.zones.values()) {
        if (zone.tick < ticks) {
          zone.step();
          stepped = true;
        }
      }
      await nextTurn();
      if (!stepped || shouldStop()) return;
    }
  }

  /** Wait until no hand-over of these zones is open (timeouts resolve the stuck ones), at most `limitMs`. */
  async settle(limitMs: number): Promise<boolean> {
    const until = Date.now() + limitMs;
    while (Date.now() < until) {
      let busy = 0;
      for (const zone of this.zones.values()) {
        zone.handover.checkTimeouts();
        busy += zone.handover.busy;
      }
      if (busy === 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }

  status(): ZoneStatus[] {
    return [...this.zones.values()].map((z) => ({
      id: z.id,
      pid: process.pid,
      tick: z.tick,
      entities: z.ownedCount,
      ghosts: z.ghosts.count,
      clients: z.players.size,
      handoversOut: z.handover.handoversOut,
      handoversIn: z.handover.handoversIn,
      stepMs: Math.round(z.stepMs * 100) / 100,
    }));
  }

  async close(): Promise<void> {
    this.stop();
    for (const zone of this.zones.values()) await zone.disconnect();
  }
}
