// The client protocol of `cantrip serve`: the one definition of every message between
// a zone room and a client (the browser page imports this file too). Transport is
// Colyseus 0.18: one room of type `zone` per zone, its roomId the zone id (`z<col>-<row>`).
// docs/server.md describes the exchange; extend it only with optional fields.
// This file must stay free of runtime imports so the page can bundle it as is.

/** The Colyseus room type every zone is registered under. */
export const ZONE_ROOM_TYPE = 'zone';

/** Message type names, client → server and server → client. */
export const MESSAGE = {
  welcome: 'welcome',
  view: 'view',
  events: 'events',
  error: 'error',
  handover: 'handover',
  move: 'move',
  cast: 'cast',
} as const;

/** A rectangle of the world: a zone, or the world itself at (0, 0). */
export interface ZoneRect {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WorldSize {
  width: number;
  height: number;
}

/** The options of `client.joinById(zoneId, options)`. */
export interface JoinOptions {
  /** A breed the scenario's `players.breeds` allows; the first allowed one when left out. */
  breed?: string;
  /** A display name (not an identity: the avatar's id is assigned by the server). */
  name?: string;
  /** Where to spawn; the scenario's spawn point when left out. A point in another zone answers `handover`. */
  x?: number;
  y?: number;
  /**
   * Ask for the compact view encoding (docs/server.md, "Bytes on the wire"): each entity
   * entering the view gets a small handle (a sixth element of its `e` entry), and moves
   * come as `c`, a flat list of [handle, dx, dy] in hundredths of a unit since the last
   * position sent, instead of `m`. Default false: the plain `m` entries.
   */
  compact?: boolean;
  /** Set by the server's own hand-over (inside the seat reservation, never by a page): the avatar already exists and is being moved here. */
  handoverAvatar?: string;
  /** The avatar's secret, set with handoverAvatar: only the client it belongs to gets this seat. */
  handoverSecret?: string;
  /**
   * Come back to an avatar: the `token` of its welcome. Join the zone `GET /avatar/<id>` names
   * (it changes when the avatar's zone was taken over by another process); breed, name and place are ignored.
   */
  rejoin?: string;
}

/** `GET /avatar/<id>`: the zone whose room to rejoin the avatar in (404 when the avatar is gone). */
export interface AvatarResponse {
  avatar: string;
  zone: string;
  /** False while the zone is being taken over by another process after its own died: ask again in a moment. */
  ready: boolean;
}

/** The seat a client consumes to move to another zone's room (Colyseus's ISeatReservation). */
export interface SeatReservation {
  name: string;
  sessionId: string;
  roomId: string;
  publicAddress?: string;
  processId?: string;
  reconnectionToken?: string;
  devMode?: boolean;
}

// ---- server → client ----

export interface WelcomeMessage {
  /** The avatar's global id; it stays the same across hand-overs. */
  avatar: string;
  zone: string;
  /** The avatar's interest (view) radius in world units. */
  interest: number;
  world: WorldSize;
  zones: ZoneRect[];
  /** Spells a client may cast by name. */
  spells: string[];
  /** How each breed is drawn: its `color` and `glyph` from the breeds file (extension; the runtime's defaults where the file says nothing). */
  breeds?: Record<string, BreedLook>;
  /** A token that brings this player back to this avatar after its zone's process died (extension; docs/server.md, "Back after a crash"). */
  token?: string;
}

/** A breed's looks, as the breeds file gives them. */
export interface BreedLook {
  color: string;
  glyph: string;
}

/** [id, breed, x, y, health], and its handle in the compact encoding. */
export type EnteredEntity = [string, string, number, number, number] | [string, string, number, number, number, number];
/** [id, x, y] */
export type MovedEntity = [string, number, number];
/** [id, health] */
export type HealthChange = [string, number];

/** Sent once per zone tick in which anything in view changed. Coordinates rounded to 0.01. */
export interface ViewMessage {
  /** The zone's tick. */
  t: number;
  /** Entered the view (ghosts from neighbour zones included). */
  e?: EnteredEntity[];
  /** Moved inside the view. */
  m?: MovedEntity[];
  /** Moved, in the compact encoding (JoinOptions.compact): [handle, dx, dy, handle, dx, dy, …], whole hundredths of a unit. */
  c?: number[];
  /** Left the view. */
  l?: string[];
  /** Health changed. */
  h?: HealthChange[];
  /** The names of entities in `e` that have one (a player's, a scenario entity's) (extension). */
  n?: EntityName[];
}

/** [id, name] */
export type EntityName = [string, string];

/** A world event visible to this client: say, damage, heal, its own casts' errors ... */
export interface ClientWorldEvent {
  type: string;
  [field: string]: unknown;
}

export type EventsMessage = ClientWorldEvent[];

export const ERROR_CODE = {
  badMessage: 'bad-message',
  unknownSpell: 'unknown-spell',
  badArguments: 'bad-arguments',
  unknownTarget: 'unknown-target',
  notYourEntity: 'not-your-entity',
  flood: 'flood',
  noAvatar: 'no-avatar',
  castFailed: 'cast-failed',
} as const;
export type ErrorCode = (typeof ERROR_CODE)[keyof typeof ERROR_CODE];

export interface ErrorMessage {
  message: string;
  code: ErrorCode;
}

/** The avatar moved to `zone`: consume the reservation, then leave the old room. */
export interface HandoverMessage {
  zone: string;
  reservation: SeatReservation;
}

// ---- client → server ----

/** Finite numbers; clamped to the breed's speed. */
export interface MoveMessage {
  vx: number;
  vy: number;
}

export type CastArgument = number | string | boolean;

/** The caster is always the client's avatar. */
export interface CastMessage {
  spell: string;
  /** An entity id (its global id) in view; the avatar itself when left out. */
  target?: string;
  args?: CastArgument[];
}

// ---- HTTP ----

/** `GET /zones` */
export interface ZonesResponse {
  world: WorldSize;
  zones: ZoneRect[];
  spells: string[];
  breeds: string[];
}

export interface ZoneStatus {
  id: string;
  /** The process running the zone. */
  pid: number;
  tick: number;
  entities: number;
  ghosts: number;
  clients: number;
  handoversOut: number;
  handoversIn: number;
  /** Milliseconds a step of the zone takes, smoothed (its load; extension). */
  stepMs?: number;
}

/** `GET /status` */
export interface StatusResponse {
  zones: ZoneStatus[];
  handovers: number;
  recovered: number;
}
