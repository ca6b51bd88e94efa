/**
 * The world cut into a grid of C×R rectangular zones (`--zones CxR`): which
 * zone owns a point, when an entity has crossed a border far enough to be
 * handed over (hysteresis: one that walks along a border does not bounce),
 * and which neighbours an entity is close enough to for a ghost.
 */

import type { ZoneRect } from './protocol.js';

export interface GridSize {
  readonly columns: number;
  readonly rows: number;
}

export interface Zone extends ZoneRect {
  readonly column: number;
  readonly row: number;
  /** Its place in the grid, row by row: also what its entity ids start from. */
  readonly index: number;
}

/** The zone id of a grid cell: `z<column>-<row>`. */
export function zoneId(column: number, row: number): string {
  return `z${column}-${row}`;
}

/** Parse `--zones CxR` (e.g. `3x2`); null when it is not that. */
export function parseGridSize(text: string): GridSize | null {
  const match = /^\s*(\d{1,3})\s*[xX×]\s*(\d{1,3})\s*$/.exec(text);
  if (match === null) return null;
  const columns = Number(match[1]);
  const rows = Number(match[2]);
  return columns >= 1 && rows >= 1 && columns * rows <= 1024 ? { columns, rows } : null;
}

export class ZoneGrid {
  readonly zones: readonly Zone[];
  private readonly byId: ReadonlyMap<string, Zone>;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly size: GridSize,
    /** How far past a border an entity must go before it is handed over (world units). */
    readonly hysteresis: number,
  ) {
    const w = width / size.columns;
    const h = height / size.rows;
    const zones: Zone[] = [];
    for (let row = 0; row < size.rows; row++) {
      for (let column = 0; column < size.columns; column++) {
        zones.push({ id: zoneId(column, row), column, row, index: zones.length, x: column * w, y: row * h, width: w, height: h });
      }
    }
    this.zones = zones;
    this.byId = new Map(zones.map((z) => [z.id, z]));
  }

  zone(id: string): Zone | undefined {
    return this.byId.get(id);
  }

  /** The zone that owns a point (a point on a shared edge belongs to the zone right of / below it; the world's far edges to the last). */
  zoneAt(x: number, y: number): Zone {
    const column = clampIndex(Math.floor((x / this.width) * this.size.columns), this.size.columns);
    const row = clampIndex(Math.floor((y / this.height) * this.size.rows), this.size.rows);
    return this.zones[row * this.size.columns + column]!;
  }

  /**
   * The zone an entity of `current` at (x, y) should be handed to, or null to
   * stay: only once it is more than `hysteresis` outside its zone.
   */
  handoverTarget(current: Zone, x: number, y: number): Zone | null {
    const m = this.hysteresis;
    const inside = x >= current.x - m && x <= current.x + current.width + m && y >= current.y - m && y <= current.y + current.height + m;
    if (inside) return null;
    const target = this.zoneAt(x, y);
    return target.id === current.id ? null : target;
  }

  /** The zones other than `current` whose rectangle is within `range` of (x, y): where the entity needs a ghost. */
  neighboursWithin(current: Zone, x: number, y: number, range: number): Zone[] {
    const out: Zone[] = [];
    for (const z of this.zones) {
      if (z.id === current.id) continue;
      const dx = Math.max(z.x - x, 0, x - (z.x + z.width));
      const dy = Math.max(z.y - y, 0, y - (z.y + z.height));
      if (dx <= range && dy <= range) out.push(z);
    }
    return out;
  }

  /** The zones as the protocol lists them. */
  rects(): ZoneRect[] {
    return this.zones.map(({ id, x, y, width, height }) => ({ id, x, y, width, height }));
  }
}

function clampIndex(i: number, count: number): number {
  return i < 0 ? 0 : i >= count ? count - 1 : i;
}
