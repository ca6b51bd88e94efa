/**
 * One zone of a served world: its own World (the scenario's breeds and
 * spells, the entities inside its rectangle), stepped by whoever runs it,
 * and after each step: what spells did to ghosts sent to their owners, entities
 * past the border handed over (server/handover.ts), ghosts published to the
 * neighbours (server/ghost-sync.ts). It records who owns what in the
 * ownership store and saves its entities there every few seconds, so a
 * survivor can take it over from that save (`ZoneRuntime.recover`).
 *
 * No networking to clients here: server/zone-room.ts puts a Colyseus room on it.
 */

import type { EntityId, WorldEvent } from '../runtime/events/events.js';
import type { World } from '../runtime/world/world.js';
import type { ScenarioCast } from '../runtime/scenario/scenario.js';
import { GhostSync } from './ghost-sync.js';
import { IDS_PER_ZONE, ScenarioCasts } from './scenario-casts.js';
import { packEntity, unpackEntity } from './travelling-entity.js';
import { ZoneSaver } from './zone-saver.js';
import type { ExportedEntity } from '../runtime/world/world.js';
import { Handover, type HandoverHost } from './handover.js';
import type { OwnershipStore } from './ownership-store.js';
import type { SummaryZone } from './serve-options.js';
import type { EntityCommand, ZoneBus, ZoneMessage } from './zone-bus.js';
import type { Zone as ZoneRectangle, ZoneGrid } from './zone-grid.js';

/** A zone taken over goes on this far past the next id of its save (more than a zone spawns between two saves). */
export const IDS_SKIPPED_AFTER_TAKEOVER = 1_000_000;

/** How much each step's time moves the zone's smoothed step time (an exponential average over ~30 steps). */
const STEP_SMOOTHING = 1 / 30;

/** Milliseconds of a step a periodic save may spend exporting (the rest waits for the next step). */
const SAVE_SLICE_MS = 4;

/** Events of an entity that players in a neighbouring zone, seeing its ghost, see too. */
const ECHOED: ReadonlySet<string> = new Set(['say', 'damage', 'heal', 'buff']);

export interface ZoneOptions {
  readonly grid: ZoneGrid;
  readonly zone: ZoneRectangle;
  readonly store: OwnershipStore;
  readonly bus: ZoneBus;
  /** A fresh world with the scenario's breeds and spells loaded, no entities. */
  readonly makeWorld: () => World;
  /** How far ghosts reach into a neighbour: the largest interest range. */
  readonly ghostRange: number;
  readonly handoverTimeoutMs: number;
  /** Milliseconds between saves of the zone's entities (0: only when asked). */
  readonly saveEveryMs: number;
  /** Milliseconds of a step a save may take (server/zone-saver.ts; default 4; Infinity: a save at once). */
  readonly saveSliceMs?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
  /** The scenario's casts, and the id of each named scenario entity (server/scenario-casts.ts). */
  readonly casts?: readonly ScenarioCast[];
  readonly entityIds?: ReadonlyMap<string, EntityId>;
}

export class ZoneRuntime {
  readonly world: World;
  readonly handover: Handover;
  readonly ghosts: GhostSync;
  readonly casts: ScenarioCasts;
  readonly id: string;
  tick = 0;
  /** Events of each type this zone's world emitted. */
  readonly eventCounts = new Map<string, number>();
  /** Milliseconds a step takes, smoothed over the last few dozen (what `GET /status` shows as the zone's load). */
  stepMs = 0;
  /** Entities taken back from the store after a takeover (`recover`). */
  recovered = 0;
  /** Player avatars here: entity id → the avatar's secret (it travels with a hand-over; the next room checks it). */
  readonly players = new Map<EntityId, string>();
  private readonly listeners = new Set<(event: WorldEvent) => void>();
  private readonly stepListeners = new Set<() => void>();
  /** Events of this zone's entities that neighbours show as ghosts, by neighbour, for their clients (sent after the step). */
  private readonly echoes = new Map<string, WorldEvent[]>();
  /** Told when a player's avatar left for another zone (its client must follow). */
  onAvatarLeft: (id: EntityId, to: string, secret: string) => void = () => {};
  /** Told when a player's avatar arrived from another zone (its client should follow it here). */
  onAvatarArrived: (id: EntityId) => void = () => {};
  private lastSave: number;
  readonly saver: ZoneSaver;
  private readonly now: () => number;

  constructor(private readonly o: ZoneOptions) {
    this.id = o.zone.id;
    this.now = o.now ?? Date.now;
    this.lastSave = this.now();
    this.saver = new ZoneSaver(
      {
        zone: o.zone.id,
        store: o.store,
        owned: () => this.handover.epochs.keys(),
        owns: (id) => this.owns(id),
        pack: (id) => this.pack(id, this.world.exportEntity(id)),
        mark: () => ({ tick: this.tick, nextId: this.world.nextEntityId }),
      },
      o.saveSliceMs ?? SAVE_SLICE_MS,
    );
    this.world = o.makeWorld();
    this.world.startIdsAt(o.zone.index * IDS_PER_ZONE + 1);
    this.ghosts = new GhostSync(this.world, o.grid, o.zone, o.bus, o.ghostRange);
    this.casts = new ScenarioCasts(o.casts ?? [], o.entityIds ?? new Map(), this.world, o.zone, (id) => this.owns(id));
    this.handover = new Handover(this.handoverHost(), o.store, o.bus, this.now, o.handoverTimeoutMs);
    this.handover.onFailure = (message) => this.o.log?.(message);
    this.handover.listener = {
      arrived: (id, secret) => {
        if (secret === undefined) return;
        this.players.set(id, secret);
        this.onAvatarArrived(id);
      },
      left: (id, to, secret) => {
        if (secret !== undefined) this.onAvatarLeft(id, to, secret);
      },
    };
    this.world.on((event) => this.observe(event as WorldEvent));
  }

  get rect(): ZoneRectangle {
    return this.o.zone;
  }

  /** Listen to the zone world's events (a room streams them to clients). */
  onEvent(listener: (event: WorldEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Start listening to the other zones. */
  async connect(): Promise<void> {
    await this.o.bus.subscribe(this.id, (message) => this.receive(message));
  }

  async disconnect(): Promise<void> {
    await this.o.bus.unsubscribe(this.id);
  }

  /** Spawn a scenario entity (inside this zone) and record it as this zone's. */
  async spawn(breed: string, x: number, y: number, name?: string): Promise<EntityId> {
    const id = this.world.spawn(breed, x, y);
    if (name !== undefined) this.world.setProperty(id, 'name', name);
    await this.claim(id);
    this.casts.started(id);
    return id;
  }

  /** A player's avatar: spawned here (it is handed over at the next step if (x, y) is in another zone). */
  async spawnAvatar(breed: string, x: number, y: number, name: string, secret: string): Promise<EntityId> {
    const id = await this.spawn(breed, x, y, name);
    this.players.set(id, secret);
    return id;
  }

  /** Called after every step (a room sends its clients their views). */
  onStep(listener: () => void): () => void {
    this.stepListeners.add(listener);
    return () => this.stepListeners.delete(listener);
  }

  /** Does this zone run the entity now (not a ghost, not in transit)? */
  owns(id: EntityId): boolean {
    return this.world.isAlive(id) && !this.world.isMirror(id) && this.handover.epochs.has(id);
  }

  /** One step, then what crosses borders: what spells did to ghosts, hand-overs, ghosts. */
  step(): void {
    const started = performance.now();
    this.casts.runDue(this.tick);
    this.world.step();
    this.tick++;
    this.world.flush();
    for (const effect of this.world.takeMirrorEffects()) {
      const owner = this.ghosts.ownerOf(effect.entity);
      // The ghost of an entity this zone is handing over: the effect waits for the hand-over and follows it.
      if (owner === this.id) this.handover.command(effect.entity, { kind: 'effect', effect });
      else if (owner !== undefined) this.o.bus.send(owner, { type: 'ghost-effect', from: this.id, effect });
    }
    this.handOverCrossers();
    this.ghosts.publish(this.tick, (id) => this.handover.epochs.has(id));
    for (const [to, events] of this.echoes) this.o.bus.send(to, { type: 'ghost-events', from: this.id, events });
    this.echoes.clear();
    this.handover.checkTimeouts();
    for (const listener of this.stepListeners) listener();
    if (this.o.saveEveryMs > 0 && this.now() - this.lastSave >= this.o.saveEveryMs && !this.saver.busy) {
      this.lastSave = this.now();
      this.saver.start(this.tick);
    }
    this.saver.continue((error) => this.o.log?.(`zone ${this.id}: saving failed: ${error instanceof Error ? error.message : String(error)}`));
    this.stepMs += (performance.now() - started - this.stepMs) * STEP_SMOOTHING;
  }

  /** Apply a client's command to an entity, wherever it is now. */
  command(id: EntityId, command: EntityCommand): ReturnType<Handover['command']> {
    return this.handover.command(id, command);
  }

  receive(message: ZoneMessage): void {
    switch (message.type) {
      case 'ghosts':
        this.ghosts.receive(message);
        return;
      case 'ghost-events':
        // Seen here as ghosts: this zone's clients hear and see it; the world here does not (it is not its own).
        for (const event of message.events) {
          if (!this.world.isMirror((event as { entity: EntityId }).entity)) continue;
          for (const listener of this.listeners) listener(event);
        }
        return;
      case 'ghost-effect':
        // Done here, or (it moved on) kept or forwarded like a client's command.
        this.handover.command(message.effect.entity, { kind: 'effect', effect: message.effect });
        return;
      default:
        this.handover.receive(message);
    }
  }

  /** Save every entity this zone owns, now, at once (a zone's first save; stopping): after the write in flight, if any. */
  async saveNow(): Promise<void> {
    this.lastSave = this.now();
    await this.saver.saveAll(this.tick);
  }

  /**
   * Take the zone over after its process died: every saved entity the owner
   * record still gives to this zone comes back, each at a new epoch (an offer
   * made by the dead process is refused from now on). State rolls back to the save.
   */
  async recover(): Promise<number> {
    const saved = await this.o.store.loadZone(this.id);
    this.tick = saved.tick;
    this.casts.restartAt(saved.tick);
    // Ids the dead process gave after its save are unknown: start past them, so no id names two entities.
    this.world.startIdsAt(Math.max(saved.nextId, this.o.zone.index * IDS_PER_ZONE + 1) + IDS_SKIPPED_AFTER_TAKEOVER);
    for (const [id, text] of saved.entities) {
      const record = await this.o.store.owner(id);
      // Handed in since the takeover began (this zone listens already): here, at its epoch, already.
      if (record?.zone !== this.id || this.handover.epochs.has(id)) continue;
      const change = await this.o.store.reclaim(id, this.id, record.epoch);
      if (!change.ok) continue;
      if (this.world.isMirror(id)) this.ghosts.drop(id);
      this.world.importEntity(this.unpack(id, text));
      this.handover.epochs.set(id, change.record!.epoch);
      this.recovered++;
    }
    this.world.flush();
    return this.recovered;
  }

  summary(): SummaryZone {
    const entities: (string | number)[] = [];
    for (const id of this.handover.epochs.keys()) {
      if (!this.owns(id)) continue;
      const name = this.world.property(id, 'name');
      entities.push(typeof name === 'string' ? name : id);
    }
    return { id: this.id, pid: process.pid, tick: this.tick, entities };
  }

  /** Entities this zone owns now. */
  get ownedCount(): number {
    let n = 0;
    for (const id of this.handover.epochs.keys()) if (this.owns(id)) n++;
    return n;
  }

  /** An entity's export with what travels beside it (server/travelling-entity.ts). */
  private pack(id: EntityId, entity: ExportedEntity): string {
    return packEntity({ entity, nextCast: this.casts.nextCastOf(id), player: this.players.get(id) });
  }

  /** What `pack` made, for an entity arriving, restored or recovered here: its next cast and its player's secret kept. */
  private unpack(id: EntityId, text: string): ExportedEntity {
    const travelling = unpackEntity(text);
    this.casts.carry(id, travelling.nextCast);
    if (travelling.player !== undefined) this.players.set(id, travelling.player);
    return travelling.entity;
  }

  private async claim(id: EntityId): Promise<void> {
    const record = await this.o.store.claim(id, this.id);
    if (record.zone === this.id && this.world.isAlive(id) && !this.world.isMirror(id)) this.handover.epochs.set(id, record.epoch);
  }

  private handOverCrossers(): void {
    const grid = this.o.grid;
    const zone = this.o.zone;
    const crossers: [EntityId, string][] = [];
    this.world.forEachPosition((id, x, y, mirror) => {
      if (mirror) return;
      const target = grid.handoverTarget(zone, x, y);
      if (target !== null && this.handover.epochs.has(id)) crossers.push([id, target.id]);
    });
    // Offered after the walk: a hand-over releases the entity and spawns its ghost.
    for (const [id, to] of crossers) this.handover.offer(id, to, this.players.get(id));
  }

  private observe(event: WorldEvent): void {
    this.eventCounts.set(event.type, (this.eventCounts.get(event.type) ?? 0) + 1);
    if (event.type === 'spawn' && !this.handover.epochs.has(event.entity) && !this.handover.inTransit(event.entity)) {
      // Spawned by a spell (a summon): this zone's from now on.
      this.background(this.claim(event.entity), `recording #${event.entity} as its own`);
    } else if (event.type === 'despawn' && event.reason !== 'handed-over' && this.handover.epochs.has(event.entity)) {
      this.handover.epochs.delete(event.entity);
      this.players.delete(event.entity);
      this.casts.left(event.entity);
      this.saver.forget(event.entity);
      this.background(this.o.store.forget(event.entity, this.id), `forgetting #${event.entity}`);
    }
    for (const listener of this.listeners) listener(event);
    if (ECHOED.has(event.type) && 'entity' in event && this.owns(event.entity)) {
      for (const to of this.ghosts.watchersOf(event.entity)) {
        let list = this.echoes.get(to);
        if (list === undefined) this.echoes.set(to, (list = []));
        list.push(event);
      }
    }
  }

  /** Work that runs beside the steps (the store): a failure is logged, never an unhandled rejection. */
  private background(work: Promise<void>, what: string): void {
    work.catch((error: unknown) => this.o.log?.(`zone ${this.id}: ${what} failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  private handoverHost(): HandoverHost {
    const world = this.world;
    return {
      zone: this.id,
      owns: (id) => this.owns(id),
      exportAndRelease: (id) => {
        const exported = world.exportEntity(id);
        const travelling = this.pack(id, exported);
        world.releaseEntity(id);
        this.casts.left(id);
        this.saver.forget(id);
        world.spawnMirror({ id, breed: exported.breed, x: exported.x, y: exported.y, health: exported.health });
        this.ghosts.keepInTransit(id);
        return travelling;
      },
      restore: (id, entity) => {
        this.ghosts.drop(id);
        world.importEntity(this.unpack(id, entity));
      },
      settled: (id, to) => {
        this.ghosts.reassign(id, to);
        this.players.delete(id);
      },
      arrive: (id, entity) => {
        this.ghosts.drop(id);
        world.importEntity(this.unpack(id, entity));
      },
      apply: (id, command) => {
        try {
          if (command.kind === 'move') world.setVelocity(id, command.vx, command.vy);
          else if (command.kind === 'effect') world.applyMirrorEffect({ ...command.effect, by: command.effect.by !== null && world.isAlive(command.effect.by) ? command.effect.by : null });
          else world.cast(command.spell, id, command.target !== null && world.isAlive(command.target) ? command.target : null, command.args);
        } catch (error) {
          // A command forwarded from another zone: its client was answered there; a target gone since is not its fault.
          this.o.log?.(`zone ${this.id}: a forwarded command for #${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    };
  }
}
