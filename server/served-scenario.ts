/**
 * A scenario file read for `cantrip serve`: the world every zone builds (its
 * breeds and spells loaded, no entities), the grid it is cut into, the
 * entities each zone starts with, and who may join as a player. Bad data is
 * a WorldError / BreedError naming the file and the field, as `cantrip sim` reports it.
 */

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { WorldError } from '../runtime/errors.js';
import { parseScenario, startScenario, type Scenario, type ScenarioEntity, type ScenarioFiles } from '../runtime/scenario/scenario.js';
import type { World } from '../runtime/world/world.js';
import { ZoneGrid, type GridSize } from './zone-grid.js';

export interface ServedScenario {
  readonly file: string;
  readonly scenario: Scenario;
  readonly grid: ZoneGrid;
  /** A fresh world of the scenario (breeds and spells, no entities), for one zone. */
  makeWorld(): World;
  readonly entities: readonly ScenarioEntity[];
  readonly playerBreeds: readonly string[];
  readonly spawn: { readonly x: number; readonly y: number };
  /** The largest interest range of any breed: how far ghosts reach into a neighbour. */
  readonly ghostRange: number;
  readonly spells: readonly string[];
  readonly breeds: readonly string[];
  /** The fixed step in seconds: zones step at 1 / step Hz in real time. */
  readonly step: number;
}

/** Read and check a scenario for serving, cut into `size` zones. */
export function loadServedScenario(file: string, size: GridSize): ServedScenario {
  const scenario = withPaths(file, parseScenario(readText(file)));
  const files: ScenarioFiles = { readText, readBytes: (path) => readFileSync(path) };
  const makeWorld = (): World => {
    // The scenario's world, except that a zone's pool grows (entities arrive from the neighbours) and AOI move events stay off (server/client-view.ts).
    const served: Scenario = { ...scenario, world: { ...scenario.world, policy: 'grow', aoiMoveEvents: false }, entities: [], casts: [] };
    return startScenario(served, files).world;
  };
  const probe = makeWorld();
  const breeds = probe.breeds.breeds.filter((b) => !b.abstract).map((b) => b.name);
  const playerBreeds = scenario.players?.breeds ?? breeds.slice(0, 1);
  for (const b of playerBreeds) {
    if (!breeds.includes(b)) throw new WorldError(`Scenario: players.breeds names ${JSON.stringify(b)}, which is not a breed of ${scenario.breeds} that can be spawned.`);
  }
  const { width, height } = probe.options;
  const maxInterest = probe.options.maxInterest;
  const ghostRange = Math.max(1, ...probe.breeds.breeds.map((b) => Math.min(b.interest, maxInterest)));
  const zoneSide = Math.min(width / size.columns, height / size.rows);
  const grid = new ZoneGrid(width, height, size, Math.max(0.5, zoneSide * 0.02));
  for (const e of scenario.entities ?? []) {
    if (!breeds.includes(e.breed)) throw new WorldError(`Scenario: entity ${JSON.stringify(e.name ?? e.breed)} has breed ${JSON.stringify(e.breed)}, which cannot be spawned.`);
  }
  const names = new Set<string>();
  for (const e of scenario.entities ?? []) {
    if (e.name === undefined) continue;
    if (names.has(e.name)) throw new WorldError(`Scenario: two entities are named '${e.name}'.`);
    names.add(e.name);
  }
  return {
    file,
    scenario,
    grid,
    makeWorld,
    entities: scenario.entities ?? [],
    playerBreeds,
    spawn: scenario.players?.spawn ?? { x: width / 2, y: height / 2 },
    ghostRange,
    spells: castableSpells(probe),
    breeds,
    step: probe.options.step,
  };
}

/** The spells a player may cast: every spell but those breeds run on their own (tick, onEnter, onLeave). */
function castableSpells(world: World): string[] {
  const automatic = new Set<string>();
  for (const b of world.breeds.breeds) for (const slot of ['tick', 'onEnter', 'onLeave'] as const) if (b.spells[slot] !== undefined) automatic.add(b.spells[slot]!);
  return world.spellNames().filter((s) => !automatic.has(s));
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new WorldError(`Scenario: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}

/** The scenario's paths are relative to it. */
function withPaths(file: string, s: Scenario): Scenario {
  const base = dirname(file);
  const local = (path: string): string => (isAbsolute(path) ? path : join(base, path));
  return { ...s, breeds: local(s.breeds), spells: s.spells.map(local) };
}
