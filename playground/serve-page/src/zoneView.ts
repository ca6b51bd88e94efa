/**
 * What the browser page knows of the world: the zones, its own avatar, and
 * the entities in its avatar's view, kept up to date from the server's
 * `welcome` and `view` messages (server/protocol.ts). Plain TypeScript (no
 * DOM, no network), so it is unit tested on its own.
 *
 * Entities are named by the server's global ids (strings); the shared world
 * painter and effects name them by numbers, so each global id gets a local
 * number the first time it is seen, kept for the page's life.
 *
 * A hand-over keeps the view: the entities stay drawn while the page moves
 * to the next zone's room; that room's first `view` lists everything in
 * range again (as `e` or `m`), and whatever it does not list is dropped then.
 */
import type { BreedLook, ViewMessage, WelcomeMessage, WorldSize, ZoneRect } from '../../../server/protocol.js';
import { breedLookOf } from '../../src/world/breedLook.js';
import type { PaintedEntity, PaintedScene } from '../../src/world/worldPainter.js';

/** An entity in view, as drawn. */
export interface ViewEntity extends PaintedEntity {
  /** The server's global id. */
  readonly key: string;
  /** The highest health seen (the protocol sends health, not its maximum): the health bar's full length. */
  readonly maxHealth: number;
  /** Its name (a player's, a scenario entity's), when the server sent one. */
  readonly name?: string;
}

/** How an entity is named on the canvas: its name; else its global id, with its breed when the id is a bare number. */
export function labelOf(e: ViewEntity): string {
  if (e.name !== undefined) return e.name;
  return /^\d+$/.test(e.key) ? `${e.breed}#${e.key}` : e.key;
}

/** Where the compact encoding last put an entity (whole hundredths), by its handle. */
interface Handled {
  readonly key: string;
  xh: number;
  yh: number;
}

/** World units an entity is drawn across when the server says nothing of its size. */
const ENTITY_RADIUS = 0.5;

export class ZoneView implements PaintedScene {
  avatar: string | null = null;
  zone: string | null = null;
  interest = 0;
  world: WorldSize | null = null;
  zones: readonly ZoneRect[] = [];
  spells: readonly string[] = [];
  /** The last zone tick a view came from. */
  tick = 0;
  private readonly byId = new Map<number, ViewEntity>();
  private readonly ids = new Map<string, number>();
  private readonly keys: string[] = [];
  /** The highest health seen of each entity, by local number (kept when it leaves the view, for when it comes back). */
  private readonly fullHealth = new Map<number, number>();
  /** After a hand-over: the next view lists everything in range, and the rest is dropped. */
  private reconcile = false;
  /** Breed looks from the server's welcome. */
  private looks = new Map<string, BreedLook>();
  /** The compact encoding's handles of the current room (a room's handles mean nothing in the next). */
  private readonly handles = new Map<number, Handled>();

  /** The local number for a global id (a new one the first time). */
  idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }

  /** The global id behind a local number. */
  keyOf(id: number): string | undefined {
    return this.keys[id];
  }

  welcome(message: WelcomeMessage): void {
    if (this.avatar !== null && this.avatar !== message.avatar) this.byId.clear(); // a new avatar: a new view
    this.avatar = message.avatar;
    this.zone = message.zone;
    this.interest = message.interest;
    this.world = message.world;
    this.zones = message.zones;
    this.spells = message.spells;
    if (message.breeds !== undefined) this.looks = new Map(Object.entries(message.breeds));
    this.handles.clear();
  }

  /** The world and its zones, before joining (from `GET /zones`). */
  layout(world: WorldSize, zones: readonly ZoneRect[]): void {
    this.world = world;
    this.zones = zones;
  }

  /** The avatar is moving to `zone`: keep what is drawn until that room's first view. */
  handover(zone: string): void {
    this.zone = zone;
    this.reconcile = true;
  }

  apply(view: ViewMessage): void {
    this.tick = view.t;
    if (this.reconcile) {
      this.reconcile = false;
      const listed = new Set<string>([...(view.e ?? []).map((e) => e[0]), ...(view.m ?? []).map((m) => m[0])]);
      for (const [id, e] of this.byId) if (!listed.has(e.key) && e.key !== this.avatar) this.byId.delete(id);
    }
    // Compact moves name handles given before this message: applied before this message's entries.
    const c = view.c ?? [];
    for (let i = 0; i + 2 < c.length; i += 3) {
      const at = this.handles.get(c[i]!);
      if (at === undefined) continue;
      at.xh += c[i + 1]!;
      at.yh += c[i + 2]!;
      this.moveTo(at.key, at.xh / 100, at.yh / 100);
    }
    const names = new Map(view.n ?? []);
    for (const entry of view.e ?? []) {
      const [key, breed, x, y, health] = entry;
      const id = this.idOf(key);
      const maxHealth = this.seenHealth(id, health);
      const name = names.get(key) ?? this.byId.get(id)?.name;
      this.byId.set(id, { id, key, breed, x, y, health, maxHealth, radius: ENTITY_RADIUS, interest: key === this.avatar ? this.interest : 0, ...(name === undefined ? {} : { name }) });
      if (entry.length === 6) this.handles.set(entry[5], { key, xh: Math.round(x * 100), yh: Math.round(y * 100) });
    }
    for (const [key, x, y] of view.m ?? []) this.moveTo(key, x, y);
    for (const [key, health] of view.h ?? []) {
      const e = this.byKey(key);
      if (e) this.byId.set(e.id, { ...e, health, maxHealth: this.seenHealth(e.id, health) });
    }
    for (const key of view.l ?? []) {
      const id = this.ids.get(key);
      if (id !== undefined && key !== this.avatar) this.byId.delete(id);
      // Its handle is free: the server gives it to another entity from the next message on.
      for (const [handle, at] of this.handles) if (at.key === key) this.handles.delete(handle);
    }
  }

  private moveTo(key: string, x: number, y: number): void {
    const e = this.byKey(key);
    if (e) this.byId.set(e.id, { ...e, x, y });
  }

  /** Note a health seen; returns the highest seen. */
  private seenHealth(id: number, health: number): number {
    const max = Math.max(health, this.fullHealth.get(id) ?? 0);
    this.fullHealth.set(id, max);
    return max;
  }

  /** Forget every entity (the page left the world). */
  clear(): void {
    this.byId.clear();
    this.handles.clear();
    this.avatar = null;
    this.zone = null;
    this.reconcile = false;
  }

  entity(id: number): ViewEntity | null {
    return this.byId.get(id) ?? null;
  }

  byKey(key: string): ViewEntity | null {
    const id = this.ids.get(key);
    return id === undefined ? null : (this.byId.get(id) ?? null);
  }

  entities(): ViewEntity[] {
    return [...this.byId.values()];
  }

  /** The page's own avatar, once it is in view. */
  avatarEntity(): ViewEntity | null {
    return this.avatar === null ? null : this.byKey(this.avatar);
  }

  /** The zone that holds the point (x, y): the zone whose room to join to spawn there. */
  zoneAt(x: number, y: number): ZoneRect | null {
    return this.zones.find((z) => x >= z.x && x < z.x + z.width && y >= z.y && y < z.y + z.height) ?? null;
  }

  breedColour(breed: string): string {
    return breedLookOf(this.looks.get(breed)).color;
  }

  breedGlyph(breed: string): string {
    return breedLookOf(this.looks.get(breed)).glyph;
  }
}
