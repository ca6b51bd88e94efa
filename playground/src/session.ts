/**
 * The toolchain side of the page: compiles against the world's host API,
 * runs scripts on a plain VM, casts spells on the live world, and turns
 * world events into console lines and canvas effects.
 */
import { describeEvent, EntityNames, type EntityId, type WorldEvent } from '../../runtime/events/events.js';
import { GAME_HOST_FUNCTIONS, WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { PLAYGROUND_HOSTS } from './hostTable.js';
import type { BreedRegistry } from '../../runtime/entities/breeds.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import type { Fiber } from '../../vm/fiber.js';
import type { PlaygroundBackend, Reporter } from './backend.js';
import { DEFAULT_BREEDS_JSON, loadBreedsJson } from './breedsData.js';
import { languageWorld } from '../../runtime/entities/language-world.js';
import { PLAYGROUND_BUDGETS, createVm, describeFailure, errorMessage } from './engine.js';
import type { ServiceWorld } from '../../compiler/service/index.js';
import type { MarkerData } from './language/markers.js';
import { explainBudgetError, explainScriptError, explainWorldLoadError } from './language/explain.js';
import { AoiDigest } from './world/aoiDigest.js';
import { PLAYGROUND_GAME_HOSTS } from './world/gameApi.js';
import { PlaygroundWorld, type SyncResult } from './world/playgroundWorld.js';
import { describeTier, type TierProbe } from './world/castTier.js';
import type { VM } from '../../vm/vm.js';
import type { World } from '../../runtime/world/world.js';

/** AOI enter/leave lines the console shows per tick; the rest are counted in one line. */
const AOI_LINES_PER_TICK = 6;

/** The host functions that act on the world (they need a cast): the runtime's game API and the playground's own. */
const WORLD_FUNCTIONS: ReadonlySet<string> = new Set([...GAME_HOST_FUNCTIONS, ...PLAYGROUND_GAME_HOSTS].map((h) => h.name));

const SILENT: Reporter = { print() {}, info() {}, event() {}, runtimeError() {} };

/** Who casts on whom; the world panel supplies it. */
export interface Selection {
  caster: EntityId | null;
  target: EntityId | null;
}

export class PlaygroundSession implements PlaygroundBackend {
  private reporter: Reporter = SILENT;
  private breeds: BreedRegistry | null = null;
  private breedsText: string | null = null;
  /** The language service's world, made again only when the breeds change (the service keeps its analyses while it is the same object). */
  private serviceWorld: { registry: BreedRegistry | null; world: ServiceWorld } | null = null;
  readonly world = new PlaygroundWorld();
  /** Set by the page: the entities picked on the canvas. */
  selection: () => Selection = () => ({ caster: null, target: null });
  /** Observers of every world event (the canvas). */
  onWorldEvent: (event: WorldEvent) => void = () => {};
  /** Told after a cast or a sync may have changed the world without an event (the canvas draws only on change). */
  onWorldChanged: () => void = () => {};
  /** The spells of the module the world runs, to tell the editor's lines from the library's. */
  private userSpells = new Set<string>();
  private breedsChanged = false;
  private readonly aoiLines = new AoiDigest(AOI_LINES_PER_TICK, (text) => this.reporter.event(text));

  constructor() {
    this.world.onEvent((event) => this.worldEvent(event));
  }

  attach(reporter: Reporter): void {
    this.reporter = reporter;
  }

  /** The world's one host table: the built-ins and the playground's own game API (completion, hover, diagnostics). */
  hostSpecs(): readonly HostFunctionSpec[] {
    return PLAYGROUND_HOSTS;
  }

  defaultBreeds(): string {
    return DEFAULT_BREEDS_JSON;
  }

  languageWorld(): ServiceWorld {
    if (this.serviceWorld === null || this.serviceWorld.registry !== this.breeds) this.serviceWorld = { registry: this.breeds, world: languageWorld(PLAYGROUND_HOSTS, this.breeds) };
    return this.serviceWorld.world;
  }

  tickSpells(): ReadonlySet<string> {
    const names = new Set<string>();
    for (const breed of this.breeds?.breeds ?? []) if (breed.spells.tick !== undefined) names.add(breed.spells.tick);
    return names;
  }

  loadBreeds(json: string): MarkerData[] {
    const loaded = loadBreedsJson(json);
    if (!loaded.ok) return loaded.markers;
    this.breeds = loaded.registry;
    if (this.breedsText !== null && this.breedsText !== json) this.breedsChanged = true;
    this.breedsText = json;
    return [];
  }

  /** Finishes the page's start-up now, the first world included, if it has not yet (set by the world controls; startupTasks.ts). */
  ensureWorld: () => void = () => {};

  /** Casts go through the debugger when this says so (breakpoints set and enabled); set by the page. */
  shouldDebug: () => boolean = () => false;
  /** Starts a debug cast; set by the page when the debugger is wired. */
  debugCast: ((spell: string, caster: EntityId | null, target: EntityId | null) => void) | null = null;
  /** Told when the editor's breakpoints change (a debug cast in progress picks them up). */
  onBreakpointsChange: () => void = () => {};
  private breakpointLines: readonly number[] = [];

  setBreakpoints(lines: readonly number[]): void {
    this.breakpointLines = lines;
    this.onBreakpointsChange();
  }

  get breakpoints(): readonly number[] {
    return this.breakpointLines;
  }

  /**
   * Run the top-level script on its own VM. Top-level code never touches the
   * world (the world also runs it each time it loads the spells, before any
   * entity exists), so a world function there gets an explanation of where
   * it belongs instead.
   */
  runScript(module: Module): void {
    // The world's own table when there is a world: its game functions then explain that they need a cast on it.
    const vm = createVm(module, this.world.world?.hosts ?? WORLD_HOST_FUNCTIONS, (text) => this.reporter.print(text));
    if (!('runScript' in vm)) {
      this.reporter.runtimeError(vm.text, vm.line);
      return;
    }
    const fiber = vm.runScript(PLAYGROUND_BUDGETS);
    this.reportFiber(fiber, 'The script');
  }

  /** Bring the world up to date with the editor (source and breeds); false when it cannot load. */
  syncWorld(source: string, module: Module, reset = false): boolean {
    this.ensureWorld();
    if (this.breedsText === null) {
      this.reporter.runtimeError('The breeds file has errors: fix it in the breeds.json tab.', null);
      return false;
    }
    const names = module.spells.map((s) => s.name);
    const breedsChanged = this.breedsChanged;
    const result: SyncResult = reset || breedsChanged ? this.world.reset(source, names, this.breedsText) : this.world.sync(source, names, this.breedsText);
    this.onWorldChanged();
    if (!result.ok) {
      this.reporter.runtimeError(explainWorldLoadError(result.message), null);
      return false;
    }
    this.breedsChanged = false;
    this.userSpells = new Set(names);
    if (breedsChanged && !reset) this.reporter.info('The breeds changed, so the world was rebuilt from its scenario. Editing spells reloads them in the running world instead.');
    if (result.rebuilt) {
      this.nameEntitiesOf(this.world);
      for (const note of result.notes) this.reporter.info(note);
      if (result.dropped > 0) this.reporter.info(`${result.dropped} waiting cast(s) of the old code were dropped when the spell changed.`);
    }
    return true;
  }

  cast(module: Module, spell: string, source?: string): void {
    if (source === undefined || !this.syncWorld(source, module)) return;
    const world = this.world.world!;
    const { caster, target } = this.resolveSelection();
    // A spell that reads its target never gets here without one (the page keeps Cast off); others cast with nil.
    if (this.debugCast && this.shouldDebug()) {
      this.debugCast(spell, caster, target);
      return;
    }
    try {
      const before = tierProbe(world, spell);
      const result = world.cast(spell, caster, target);
      world.flush();
      this.onWorldChanged();
      // Which tier ran it: the interpreter until the spell (or a loop of it) is hot, then compiled JavaScript — possibly both in one cast.
      const after = tierProbe(world, spell);
      const tier = describeTier(before, after, this.compiledInCasts.get(world.spellVm(spell)!)?.has(spell) ?? false);
      if (after.words > before.words && !after.compiled) this.rememberCompiledInCast(world.spellVm(spell)!, spell);
      if (result.state === 'suspended') this.reporter.info(`${spell} is waiting (${tier}): press Play or Step tick to let game time pass.`);
      else if (result.state === 'done') this.reporter.info(`${spell} finished (${tier}).`);
    } catch (e) {
      this.reporter.runtimeError(`Cannot cast ${spell}: ${errorMessage(e)}`, null);
    }
  }

  /** Per VM, the spells whose casts compiled code while the spell itself stayed on the interpreter (describeTier). */
  private readonly compiledInCasts = new WeakMap<VM, Set<string>>();

  private rememberCompiledInCast(vm: VM, spell: string): void {
    const spells = this.compiledInCasts.get(vm) ?? new Set<string>();
    spells.add(spell);
    this.compiledInCasts.set(vm, spells);
  }

  /** The picked caster, or the first hero / first entity when none is picked. */
  resolveSelection(): Selection {
    this.ensureWorld();
    const picked = this.selection();
    const alive = (id: EntityId | null) => id !== null && this.world.entity(id) !== null;
    const caster = alive(picked.caster) ? picked.caster : this.defaultCaster();
    return { caster, target: alive(picked.target) ? picked.target : null };
  }

  /** The first entity of a breed tagged "hero" (tags are breed data), else the first entity. */
  defaultCaster(): EntityId | null {
    const entities = this.world.entities();
    const isHero = (breed: string) => this.world.world?.breeds.get(breed)?.tags.includes('hero') ?? false;
    return (entities.find((e) => isHero(e.breed)) ?? entities[0])?.id ?? null;
  }

  /** Breeds of the entities whose spawn and death the console saw: the dead are named in the lines that follow their death. */
  private readonly names = new EntityNames();
  /** Names entities by breed in console lines ("Troll#2"): the world knows every living one (even after a rebuild), the names the recently dead. */
  private readonly breedOf = (id: EntityId): string | undefined => this.world.entity(id)?.breed ?? this.names.breedOf(id);

  /** A new world: its ids may name other entities than the old one's, and its entities spawned before the console listened. */
  private nameEntitiesOf(world: PlaygroundWorld): void {
    this.names.clear();
    for (const e of world.entities()) this.names.remember(e.id, e.breed);
  }

  private worldEvent(event: WorldEvent): void {
    this.names.observe(event);
    this.onWorldEvent(event);
    switch (event.type) {
      case 'print':
        this.reporter.print(event.text);
        return;
      case 'cast-error': {
        const mine = this.userSpells.has(event.spell);
        const trace = explainBudgetError(event.trace);
        this.reporter.runtimeError(mine ? trace : `${trace}\n(in a library spell from spells/)`, mine && event.line > 0 ? event.line : null);
        return;
      }
      case 'particles':
        return;
      case 'aoi':
        if (event.kind === 'move') return;
        this.aoiLines.add(event.tick, describeEvent(event, this.breedOf));
        return;
      default:
        this.reporter.event(describeEvent(event, this.breedOf));
    }
  }

  private reportFiber(fiber: Fiber, what: string): void {
    if (fiber.state === 'failed' && fiber.error) {
      const failure = describeFailure(fiber.error);
      this.reporter.runtimeError(explainScriptError(failure.text, WORLD_FUNCTIONS), failure.line);
    } else if (fiber.state === 'done') {
      this.reporter.info(`${what} finished.`);
    } else if (fiber.state === 'suspended') {
      this.reporter.info(`${what} is waiting; scripts are not resumed (cast a spell on the world to use wait).`);
    }
  }
}

/** What the spell's VM held: its function compiled whole, and the words compiled so far. */
function tierProbe(world: World, spell: string): TierProbe {
  return { compiled: world.tierOf(spell) === 'compiled', words: world.spellVm(spell)?.compileStats.words ?? 0 };
}
