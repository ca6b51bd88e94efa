/**
 * Scenarios: a headless simulation described as data, run by `cantrip sim`
 * and by the tests. A scenario names a breeds file and spell files
 * (relative to the scenario), the world, the initial entities (by name), a
 * seed, and casts at given ticks:
 *
 * {
 *   "description": "Fireball among the trolls",
 *   "breeds": "../breeds.json",
 *   "spells": ["../fireball.spell", "../trolls.spell"],
 *   "world": { "width": 40, "height": 30, "partition": "grid", "capacity": 64 },
 *   "seed": 7,
 *   "ticks": 30,
 *   "entities": [{ "name": "hero", "breed": "Wizard", "x": 10, "y": 10 }],
 *   "casts": [{ "tick": 2, "spell": "fireball", "caster": "hero", "target": "troll" }],
 *   "players": { "breeds": ["Wizard"], "spawn": { "x": 5, "y": 5 } }
 * }
 *
 * `players` is for `cantrip serve` (server/): the breeds a connecting player may
 * take as avatar (the first is the default) and where avatars appear.
 *
 * A cast at tick N runs just before step N (tick 0: before the first step).
 */

import { Ajv, type ErrorObject } from 'ajv';
import { compile } from '../../compiler/index.js';
import { VerifyError } from '../../vm/errors.js';
import { BreedError, WorldError } from '../errors.js';
import type { EntityId, WorldEvent } from '../events/events.js';
import type { Tier } from '../../vm/vm.js';
import type { HostFunction } from '../../vm/host.js';
import { parseJson } from '../entities/json-syntax.js';
import { World, type WorldOptions } from '../world/world.js';
import { AOI_ENGINE_NAMES } from '../aoi/aoi-engines.js';

export interface ScenarioEntity {
  readonly name?: string;
  readonly breed: string;
  readonly x: number;
  readonly y: number;
}

export interface ScenarioCast {
  readonly tick: number;
  readonly spell: string;
  readonly caster?: string;
  readonly target?: string;
}

/** Who may join a served world (`cantrip serve`): the avatar breeds allowed, and where avatars appear. */
export interface ScenarioPlayers {
  readonly breeds: readonly string[];
  readonly spawn?: { readonly x: number; readonly y: number };
}

export interface Scenario {
  readonly description?: string;
  readonly breeds: string;
  readonly spells: readonly string[];
  readonly world: Omit<WorldOptions, 'seed' | 'budgets'> & { readonly fuel?: number };
  readonly seed?: number;
  readonly ticks?: number;
  readonly entities?: readonly ScenarioEntity[];
  readonly casts?: readonly ScenarioCast[];
  readonly players?: ScenarioPlayers;
}

const NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;
const COORD = { type: 'number', minimum: -1e9, maximum: 1e9 } as const;

export const SCENARIO_SCHEMA = {
  type: 'object',
  required: ['breeds', 'spells', 'world'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    description: { type: 'string' },
    breeds: NAME,
    spells: { type: 'array', items: NAME, maxItems: 200 },
    world: {
      type: 'object',
      required: ['width', 'height'],
      additionalProperties: false,
      properties: {
        width: { type: 'number', exclusiveMinimum: 0, maximum: 1e9 },
        height: { type: 'number', exclusiveMinimum: 0, maximum: 1e9 },
        capacity: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        policy: { enum: ['error', 'grow', 'recycle-oldest'] },
        partition: { enum: ['grid', 'axis'] },
        aoi: { enum: AOI_ENGINE_NAMES },
        cellSize: { type: 'number', exclusiveMinimum: 0 },
        interestShape: { enum: ['square', 'circle'] },
        step: { type: 'number', exclusiveMinimum: 0, maximum: 60 },
        maxStepsPerTick: { type: 'integer', minimum: 1, maximum: 1000 },
        aoiMoveEvents: { type: 'boolean' },
        fuel: { type: 'integer', minimum: 1 },
      },
    },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
    ticks: { type: 'integer', minimum: 0, maximum: 10_000_000 },
    entities: {
      type: 'array',
      maxItems: 1_000_000,
      items: {
        type: 'object',
        required: ['breed', 'x', 'y'],
        additionalProperties: false,
        properties: { name: NAME, breed: NAME, x: COORD, y: COORD },
      },
    },
    casts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tick', 'spell'],
        additionalProperties: false,
        properties: { tick: { type: 'integer', minimum: 0 }, spell: NAME, caster: NAME, target: NAME },
      },
    },
    players: {
      type: 'object',
      required: ['breeds'],
      additionalProperties: false,
      properties: {
        breeds: { type: 'array', items: NAME, minItems: 1, maxItems: 100 },
        spawn: { type: 'object', required: ['x', 'y'], additionalProperties: false, properties: { x: COORD, y: COORD } },
      },
    },
  },
} as const;

let validator: ReturnType<Ajv['compile']> | null = null;

/** Parse and check a scenario file's text. Throws WorldError naming the problem (with line/column for JSON syntax). */
export function parseScenario(text: string): Scenario {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.problem;
    throw new WorldError(`Scenario: JSON syntax error at line ${line}, column ${column}: ${message}`);
  }
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(SCENARIO_SCHEMA);
  if (!validator(parsed.value)) throw new WorldError(`Scenario: ${describeError(validator.errors?.[0])}`);
  return parsed.value as Scenario;
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'invalid.';
  const where = error.instancePath === '' ? 'the scenario' : `'${error.instancePath.slice(1).replace(/\//g, '.')}'`;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `${where} has an unknown field '${String(params.additionalProperty)}'.`;
  if (error.keyword === 'required') return `${where} needs '${String(params.missingProperty)}'.`;
  if (error.keyword === 'enum') return `${where} must be one of ${(params.allowedValues as unknown[]).join(', ')}.`;
  if (error.keyword === 'type') {
    const type = String(params.type);
    return `${where} must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}.`;
  }
  return `${where} ${error.message ?? 'is invalid'}.`;
}

/** Reads the files a scenario names, resolved against the scenario's folder by the caller. */
export interface ScenarioFiles {
  readText(path: string): string;
  readBytes(path: string): Uint8Array;
}

export interface ScenarioRun {
  readonly world: World;
  /** Scenario entity names → ids. */
  readonly names: ReadonlyMap<string, EntityId>;
  /** Runs the casts due at `tick` and one step; returns nothing (observe with world.on). */
  step(): void;
  /** Runs the casts due before the next step, without stepping (step() then runs only the step): a debugger stops in a cast before the world moves on. */
  castDue(): void;
  /** Ticks (steps) run so far. */
  readonly ticksRun: number;
  /** Go on with the same schedule on another world: one restored from a snapshot of this run's world (save and load mid-scenario). */
  continueOn(world: World): void;
}

/** Build the world of a scenario: load breeds and spells, spawn the entities. Throws WorldError / BreedError. */
export function startScenario(
  scenario: Scenario,
  files: ScenarioFiles,
  code: { readonly hosts?: readonly HostFunction[]; readonly tier?: Tier } = {},
): ScenarioRun {
  const { fuel, ...worldOptions } = scenario.world;
  const world = new World({ ...worldOptions, seed: scenario.seed ?? 1, budgets: fuel === undefined ? {} : { fuel }, hosts: code.hosts, tier: code.tier });
  for (const path of scenario.spells) {
    if (path.endsWith('.spb')) loadBytecode(world, files.readBytes(path), path);
    else loadSource(world, files.readText(path), path);
  }
  loadBreedsFile(world, files.readText(scenario.breeds), scenario.breeds);
  const names = new Map<string, EntityId>();
  for (const e of scenario.entities ?? []) {
    const id = world.spawn(e.breed, e.x, e.y);
    if (e.name !== undefined) {
      if (names.has(e.name)) throw new WorldError(`Scenario: two entities are named '${e.name}'.`);
      names.set(e.name, id);
    }
  }
  const casts = [...(scenario.casts ?? [])].sort((a, b) => a.tick - b.tick);
  const entity = (name: string | undefined, role: string, spell: string): EntityId | null => {
    if (name === undefined) return null;
    const id = names.get(name);
    if (id === undefined) throw new WorldError(`Scenario: cast of '${spell}' names unknown ${role} '${name}'.`);
    return id;
  };
  for (const c of casts) {
    if (!world.spellNames().includes(c.spell)) throw new WorldError(`Scenario: cast at tick ${c.tick} names unknown spell '${c.spell}'.`);
    entity(c.caster, 'caster', c.spell);
    entity(c.target, 'target', c.spell);
  }
  let next = 0;
  let ticksRun = 0;
  let current = world;
  // The casts due before the next step (step() runs them first; a debugger runs them alone, to stop in one before the world moves on).
  const castDue = (): void => {
    while (next < casts.length && casts[next]!.tick <= ticksRun) {
      const c = casts[next++]!;
      const caster = entity(c.caster, 'caster', c.spell);
      const target = entity(c.target, 'target', c.spell);
      // An entity that died before its cast: the cast is reported and skipped, the run goes on.
      if ((caster !== null && !current.isAlive(caster)) || (target !== null && !current.isAlive(target))) {
        skipped(current, c, caster);
        continue;
      }
      current.cast(c.spell, caster, target);
    }
  };
  return {
    get world() {
      return current;
    },
    names,
    get ticksRun() {
      return ticksRun;
    },
    continueOn(restored: World) {
      current = restored;
    },
    step() {
      castDue();
      current.step();
      ticksRun++;
    },
    castDue,
  };
}

/** Every compile error of a spell file, each as `path:line:column: error: message`, so the user can fix them in one pass. */
function loadSource(world: World, source: string, path: string): void {
  const errors = compile(source, { sourceName: path, hosts: world.hosts }).diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const lines = errors.map((d) => `${path}:${d.line}:${d.column}: error: ${d.message}`);
    throw new WorldError(`the spells in ${path} do not compile:\n${lines.join('\n')}`);
  }
  world.loadSpells(source, path);
}

/** A bad .spb names its file, as `cantrip run` does. */
function loadBytecode(world: World, bytes: Uint8Array, path: string): void {
  try {
    world.loadModule(bytes, path);
  } catch (error) {
    if (error instanceof VerifyError) throw new WorldError(`${path} is not valid Cantrip bytecode: ${error.message}`);
    throw error;
  }
}

/** A breed error names the breeds file too: the scenario may point at any of several. */
function loadBreedsFile(world: World, text: string, path: string): void {
  try {
    world.loadBreeds(text);
  } catch (error) {
    if (error instanceof BreedError) throw new BreedError(`${path}: ${error.message}`, error.breed, error.field, error.line, error.column);
    throw error;
  }
}

function skipped(world: World, c: ScenarioCast, caster: EntityId | null): void {
  // Reported through the normal event stream, as a cast error with no line (by its caster, not "the world").
  const event: WorldEvent = {
    type: 'cast-error',
    tick: world.steps,
    id: null,
    spell: c.spell,
    caster,
    line: 0,
    message: `Skipped: the ${c.caster !== undefined ? 'caster or target' : 'target'} is gone.`,
    trace: `Skipped: the ${c.caster !== undefined ? 'caster or target' : 'target'} is gone.`,
  };
  world.emit(event);
}

/** Run a whole scenario, handing every event to `onEvent`. Returns the world at the end. */
export function runScenario(
  scenario: Scenario,
  files: ScenarioFiles,
  options: { ticks?: number; onEvent?: (event: WorldEvent) => void; hosts?: readonly HostFunction[]; tier?: Tier } = {},
): World {
  const run = startScenario(scenario, files, { hosts: options.hosts, tier: options.tier });
  if (options.onEvent) run.world.on(options.onEvent);
  run.world.flush();
  const ticks = options.ticks ?? scenario.ticks ?? 100;
  for (let t = 0; t < ticks; t++) run.step();
  run.world.flush();
  return run.world;
}

export { BreedError, WorldError };
