/**
 * The live world behind the canvas: the runtime's own World (with the
 * playground's own game API, gameApi.ts), loaded with the editor's spells,
 * the library spells from spells/ that do not clash with them, and the
 * breeds from the breeds tab. When only the editor's spells change they are
 * reloaded in the running world (World.loadSpells with the same name): the
 * entities walk on, casts in flight finish on the old code, the next cast
 * runs the new. When that cannot be done in place (the library files or the
 * breeds' usable behaviours change with it) the world is hot-swapped through
 * a snapshot; new breeds rebuild it from the scenario.
 */
import type { WorldEvent, WorldListener, EntityId } from '../../../runtime/events/events.js';
import { World, type EntityField, type EntityView, type SpellsReload, type WorldOptions } from '../../../runtime/world/world.js';
import { PLAYGROUND_GAME_HOSTS } from './gameApi.js';
import type { WorldSnapshot } from '../../../runtime/snapshot/world-snapshot.js';
import type { BreedData } from '../../../runtime/entities/breeds.js';
import { declaredSpells } from '../../../compiler/service/index.js';
import { keepKnownSpells, libraryFilesFor, type SpellFile } from '../language/worldSetup.js';
import { errorMessage } from '../engine.js';
import { breedLookOf } from './breedLook.js';

const spellFiles = import.meta.glob<string>('../../../spells/*.spell', { query: '?raw', import: 'default', eager: true });
const scenarioFiles = import.meta.glob<unknown>('../../../spells/scenarios/*.json', { import: 'default', eager: true });

export const USER_SOURCE_NAME = 'spell.cantrip';

export interface EntitySetup {
  readonly breed: string;
  readonly x: number;
  readonly y: number;
}

export interface WorldSetup {
  /** The scenario file's base name (spells/scenarios/<name>.json). */
  readonly name: string;
  readonly description: string;
  readonly options: WorldOptions;
  readonly entities: readonly EntitySetup[];
}

/** The scenario the world starts with, and returns to for examples without one of their own. */
const DEFAULT_SCENARIO = 'trolls';

interface ScenarioData {
  readonly description?: string;
  readonly world?: WorldOptions;
  readonly entities?: EntitySetup[];
}

function scenarioNamed(name: string): ScenarioData | undefined {
  const entry = Object.entries(scenarioFiles).find(([path]) => path.endsWith(`/${name}.json`));
  return entry?.[1] as ScenarioData | undefined;
}

/** The world and entities of spells/scenarios/<name>.json (trolls.json, or the first, by default): layouts are data too. */
function setupFor(name: string): WorldSetup {
  const first = Object.entries(scenarioFiles)[0];
  const found = scenarioNamed(name) ?? scenarioNamed(DEFAULT_SCENARIO);
  const scenario = found ?? (first?.[1] as ScenarioData | undefined);
  const world = scenario?.world ?? { width: 40, height: 30, partition: 'grid', cellSize: 4, step: 0.1 };
  const entities = scenario?.entities ?? [];
  return {
    name: scenarioNamed(name) ? name : DEFAULT_SCENARIO,
    description: scenario?.description ?? '',
    options: { ...world, capacity: Math.max(256, world.capacity ?? 0), policy: 'grow', aoiMoveEvents: false },
    entities: entities.map((e) => ({ breed: e.breed, x: e.x, y: e.y })),
  };
}

export function libraryFiles(): SpellFile[] {
  return Object.entries(spellFiles)
    .map(([path, source]) => ({ name: path.replace(/^.*\//, ''), source, spells: declaredSpells(source) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** What the world panel reports back. */
export type SyncResult =
  | { ok: true; rebuilt: boolean; dropped: number; notes: string[]; /** Set when the spells were reloaded in the running world. */ reload?: SpellsReload }
  | { ok: false; message: string };

/** Budgets for casts on the playground world: finite, so the page never hangs. */
export const WORLD_BUDGETS = { fuel: 5_000_000, maxFrames: 256, maxHeap: 4_000_000, maxWait: 600 };

export class PlaygroundWorld {
  world: World | null = null;
  private source: string | null = null;
  private breedsText: string | null = null;
  /** The library files loaded beside the editor's spells (a reload in place needs the same set). */
  private libraryNames = '';
  private libraryCache: SpellFile[] | null = null;
  private readonly listeners = new Set<WorldListener>();
  private readonly rebuildListeners = new Set<() => void>();
  private readonly reloadListeners = new Set<() => void>();
  private currentSetup: WorldSetup = setupFor(DEFAULT_SCENARIO);

  /** The library files, read (each parsed for its spell names) when the world is first built, not at start-up. */
  private get library(): SpellFile[] {
    return (this.libraryCache ??= libraryFiles());
  }

  get setup(): WorldSetup {
    return this.currentSetup;
  }

  /**
   * An example with a scenario of the same name (traps.spell → scenarios/traps.json)
   * gets that layout; the others get the default one. True when the layout
   * changed (the caller resets the world).
   */
  useScenarioFor(example: string): boolean {
    const next = setupFor(example);
    if (next.name === this.currentSetup.name) return false;
    this.currentSetup = next;
    return true;
  }

  onEvent(listener: WorldListener): void {
    this.listeners.add(listener);
  }

  /** Called whenever a new World replaces the current one (hot swap, reset, new breeds): its fibers are gone. */
  onRebuild(listener: () => void): void {
    this.rebuildListeners.add(listener);
  }

  /** Called when the editor's spells were reloaded in the running world (casts in flight keep the old code). */
  onReload(listener: () => void): void {
    this.reloadListeners.add(listener);
  }

  /** The editor source the world runs now (null before the first sync). */
  get runningSource(): string | null {
    return this.source;
  }

  /** Make the world run `source` with `breedsText`; keeps the entities when only the source changed. */
  sync(source: string, sourceSpells: readonly string[], breedsText: string): SyncResult {
    if (this.world && this.source === source && this.breedsText === breedsText) return { ok: true, rebuilt: false, dropped: 0, notes: [] };
    const reload = this.world !== null && this.breedsText === breedsText ? this.reloadInPlace(this.world, source, sourceSpells, breedsText) : null;
    if (reload !== null) {
      this.source = source;
      for (const l of this.reloadListeners) l();
      return { ok: true, rebuilt: false, dropped: 0, notes: [], reload };
    }
    try {
      const keep = this.world !== null && this.breedsText === breedsText;
      const { world, notes, dropped } = keep
        ? this.hotSwap(this.world!, source, sourceSpells, breedsText)
        : this.build(source, sourceSpells, breedsText);
      this.adopt(world, source, sourceSpells, breedsText);
      return { ok: true, rebuilt: true, dropped, notes };
    } catch (e) {
      return { ok: false, message: errorMessage(e) };
    }
  }

  /** Respawn the starting entities (with the current source and breeds). */
  reset(source: string, sourceSpells: readonly string[], breedsText: string): SyncResult {
    try {
      const { world, notes } = this.build(source, sourceSpells, breedsText);
      this.adopt(world, source, sourceSpells, breedsText);
      return { ok: true, rebuilt: true, dropped: 0, notes };
    } catch (e) {
      return { ok: false, message: errorMessage(e) };
    }
  }

  /**
   * Live reload: replace the editor's module in the running world. Null when
   * it cannot be done in place — other library files would load, the breeds'
   * usable behaviours would change, or the world refuses (a breed would lose
   * its spell) — and the caller rebuilds instead.
   */
  private reloadInPlace(world: World, source: string, sourceSpells: readonly string[], breedsText: string): SpellsReload | null {
    if (this.libraryNamesFor(sourceSpells) !== this.libraryNames) return null;
    const names = [...libraryFilesFor(this.library, sourceSpells).flatMap((f) => f.spells), ...sourceSpells];
    try {
      if (JSON.stringify(this.trimmedBreeds(breedsText, names).data) !== JSON.stringify(world.breeds.source)) return null;
      // 'keep': what the playground shows and says today (casts in flight finish on the old code); 'continue' needs its UI (issue 32).
      world.loadSpells(source, USER_SOURCE_NAME, { inFlight: 'keep' });
    } catch {
      return null;
    }
    world.flush(); // the spells-reload event, for the console
    return world.lastLoad;
  }

  private libraryNamesFor(sourceSpells: readonly string[]): string {
    return libraryFilesFor(this.library, sourceSpells)
      .map((f) => f.name)
      .join('\n');
  }

  private adopt(world: World, source: string, sourceSpells: readonly string[], breedsText: string): void {
    const replaced = this.world !== null;
    this.world = world;
    this.libraryNames = this.libraryNamesFor(sourceSpells);
    this.source = source;
    this.breedsText = breedsText;
    world.on((event: WorldEvent) => {
      for (const l of this.listeners) l(event);
    });
    if (replaced) for (const l of this.rebuildListeners) l();
  }

  private spellFilesFor(source: string, sourceSpells: readonly string[]): { name: string; source: string }[] {
    const library = libraryFilesFor(this.library, sourceSpells);
    return [
      ...library.map((f) => ({ name: f.name, source: f.source })),
      { name: USER_SOURCE_NAME, source },
    ];
  }

  private trimmedBreeds(breedsText: string, spellNames: readonly string[]): { data: unknown; notes: string[] } {
    const { data, dropped } = keepKnownSpells(JSON.parse(breedsText) as unknown, new Set(spellNames));
    const notes = dropped.length > 0 ? [`Breed behaviours without a loaded spell are off: ${dropped.join(', ')}.`] : [];
    return { data, notes };
  }

  private build(source: string, sourceSpells: readonly string[], breedsText: string): { world: World; notes: string[]; dropped: number } {
    const world = new World({ ...this.setup.options, budgets: WORLD_BUDGETS, hosts: PLAYGROUND_GAME_HOSTS });
    for (const file of this.spellFilesFor(source, sourceSpells)) world.loadSpells(file.source, file.name);
    const { data, notes } = this.trimmedBreeds(breedsText, world.spellNames());
    world.loadBreeds(data as BreedData);
    const breeds = new Set(world.breeds.breeds.filter((b) => !b.abstract).map((b) => b.name));
    for (const e of this.setup.entities) {
      if (breeds.has(e.breed)) world.spawn(e.breed, e.x, e.y);
      else notes.push(`No breed '${e.breed}' in the breeds file: not spawned.`);
    }
    world.flush();
    return { world, notes, dropped: 0 };
  }

  private hotSwap(old: World, source: string, sourceSpells: readonly string[], breedsText: string): { world: World; notes: string[]; dropped: number } {
    const snapshot: WorldSnapshot = old.snapshot();
    const files = this.spellFilesFor(source, sourceSpells);
    // Spell names the new world will have: the library's (known textually) plus the source's.
    const names = [...libraryFilesFor(this.library, sourceSpells).flatMap((f) => f.spells), ...sourceSpells];
    const { data, notes } = this.trimmedBreeds(breedsText, names);
    // The old code's casts in flight and globals cannot move into different modules: they are dropped here
    // (an edit of the spells alone reloads in place instead, and keeps them).
    const next: WorldSnapshot = {
      ...snapshot,
      spells: files.map((f) => ({ sourceName: f.name, source: f.source })),
      breeds: data,
      spellState: { vms: [], casts: [] },
    };
    // The restored world runs under the playground's own budgets and limits (a save carries at most those).
    return { world: World.restore(next, { ...this.setup.options, budgets: WORLD_BUDGETS, hosts: PLAYGROUND_GAME_HOSTS }), notes, dropped: snapshot.spellState.casts.length + snapshot.pendingCasts };
  }

  entities(): EntityView[] {
    return this.world ? this.world.entities() : [];
  }

  entity(id: EntityId): EntityView | null {
    return this.world ? this.world.entity(id) : null;
  }

  /** Its breed's attributes and the fields spells set on it (the inspector shows them). */
  fields(id: EntityId): EntityField[] {
    return this.world ? this.world.fields(id) : [];
  }

  breedColour(name: string): string {
    return breedLookOf(this.world?.breeds.get(name)).color;
  }

  breedGlyph(name: string): string {
    return breedLookOf(this.world?.breeds.get(name)).glyph;
  }
}
