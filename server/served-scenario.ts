/**
 * A scenario read for `cantrip serve` (a file) or `serveWorld` (data): the
 * world every zone builds (its breeds and spells loaded with the game's host
 * functions, no entities), the grid it is cut into, the entities each zone
 * starts with, its scheduled casts, and who may join as a player. Bad data is
 * a WorldError / BreedError naming the file and the field, as `cantrip sim`
 * reports it; so is a spell that calls a function the server does not have.
 */

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { compile } from '../compiler/index.js';
import { undefinedVariableMessage } from '../compiler/resolver.js';
import { WorldError } from '../runtime/errors.js';
import { parseScenario, startScenario, type Scenario, type ScenarioCast, type ScenarioEntity, type ScenarioFiles } from '../runtime/scenario/scenario.js';
import type { World } from '../runtime/world/world.js';
import type { HostFunction } from '../vm/host.js';
import type { EntityId } from '../runtime/events/events.js';
import { scenarioEntityIds } from './scenario-casts.js';
import { ZoneGrid, type GridSize } from './zone-grid.js';

export interface ServedScenario {
  /** The scenario file, or a name for a scenario given as data. */
  readonly file: string;
  readonly scenario: Scenario;
  /** The game's own host functions every zone's world has (beside the built-ins). */
  readonly hosts: readonly HostFunction[];
  /** The scenario's `casts`, by tick (run by the zone of their caster: server/scenario-casts.ts). */
  readonly casts: readonly ScenarioCast[];
  /** The id each named scenario entity gets (server/scenario-casts.ts). */
  readonly entityIds: ReadonlyMap<string, EntityId>;
  readonly grid: ZoneGrid;
  /** A fresh world of the scenario (breeds and spells, no entities), for one zone; `sources`: spell files' texts to use instead of reading them. */
  makeWorld(sources?: ReadonlyMap<string, string>): World;
  /** Reads the scenario's files. */
  readonly files: ScenarioFiles;
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

/** Read and check a scenario file for serving, cut into `size` zones. */
export function loadServedScenario(file: string, size: GridSize, hosts: readonly HostFunction[] = []): ServedScenario {
  return servedScenario(withPaths(dirname(file), parseScenario(readText(file))), size, { name: file, hosts });
}

export interface ServedScenarioSource {
  /** What messages call the scenario (its file). */
  readonly name: string;
  readonly hosts: readonly HostFunction[];
  /** Reads the breeds and spell files it names (default: from disk). */
  readonly files?: ScenarioFiles;
}

/** Check a scenario given as data (its paths resolved already) for serving, cut into `size` zones. */
export function servedScenario(scenario: Scenario, size: GridSize, source: ServedScenarioSource): ServedScenario {
  const { name: file, hosts } = source;
  const files: ScenarioFiles = source.files ?? { readText, readBytes: (path) => readFileSync(path) };
  const makeWorld = (sources?: ReadonlyMap<string, string>): World => {
    // The scenario's world, except that a zone's pool grows (entities arrive from the neighbours) and AOI move events stay off (server/client-view.ts).
    const served: Scenario = { ...scenario, world: { ...scenario.world, policy: 'grow', aoiMoveEvents: false }, entities: [], casts: [] };
    const from: ScenarioFiles = sources === undefined ? files : { readBytes: files.readBytes, readText: (path) => sources.get(path) ?? files.readText(path) };
    return startScenario(served, from, { hosts }).world;
  };
  const probe = makeWorld();
  checkCallsHosts(scenario, files, probe);
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
  const casts = [...(scenario.casts ?? [])].sort((a, b) => a.tick - b.tick);
  const spellNames = new Set(probe.spellNames());
  for (const c of casts) {
    if (!spellNames.has(c.spell)) throw new WorldError(`Scenario: cast at tick ${c.tick} names unknown spell '${c.spell}'.`);
    for (const [role, who] of [['caster', c.caster], ['target', c.target]] as const) {
      if (who !== undefined && !names.has(who)) throw new WorldError(`Scenario: cast of '${c.spell}' at tick ${c.tick} names unknown ${role} '${who}' (a served cast names entities of the scenario).`);
    }
  }
  return {
    file,
    scenario,
    hosts,
    files,
    casts,
    entityIds: scenarioEntityIds(scenario.entities ?? [], grid),
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
export function castableSpells(world: World): string[] {
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

/**
 * A spell that calls a name that is neither a built-in, a game host function
 * nor declared in its file compiles to a global lookup that fails in every
 * cast ("Undefined variable"): the usual cause is a game function the server
 * was not given. Served, that fails in front of players; refused here instead,
 * every name with its place.
 */
function checkCallsHosts(scenario: Scenario, files: ScenarioFiles, world: World): void {
  const missing: string[] = [];
  const names = new Set<string>();
  for (const path of scenario.spells) {
    if (path.endsWith('.spb')) continue; // bytecode binds its host imports by name at load: a missing one failed already
    for (const d of compile(files.readText(path), { sourceName: path, hosts: world.hosts }).diagnostics) {
      if (d.severity !== 'warning' || d.token === null || d.message !== undefinedVariableMessage(d.token)) continue;
      names.add(d.token);
      missing.push(`${path}:${d.line}:${d.column}: '${d.token}'`);
    }
  }
  if (missing.length === 0) return;
  const list = [...names].map((n) => `'${n}'`).join(', ');
  throw new WorldError(
    `Scenario: the spells call ${list}, which ${names.size === 1 ? 'is' : 'are'} not a built-in, not one of the server's host functions and not declared in the spell's file, so every cast that reaches ${names.size === 1 ? 'it' : 'one'} would fail:\n` +
      missing.join('\n') +
      `\nGive the server the game's host functions: cantrip serve --hosts MODULE (their implementations), or --api FILE (declared only: a call fails at run time with a message); serveWorld({ hosts }) from code.`,
  );
}

/** The scenario's paths are relative to its folder. */
export function withPaths(base: string, s: Scenario): Scenario {
  const local = (path: string): string => (isAbsolute(path) ? path : join(base, path));
  return { ...s, breeds: local(s.breeds), spells: s.spells.map(local) };
}
