/**
 * What a `launch` debugs, built from its plan: the VMs of the loaded
 * source files (where breakpoints go), the world when there is one, and how
 * the program begins and moves on. Three kinds, as the CLI runs them:
 *
 * - a script: the file's top level on one VM, as `cantrip run` runs it;
 * - a cast: the file loaded into a world of the project's breeds
 *   (cantrip.json), one spell cast with the given arguments (entities are
 *   spawned for them), the world stepped while the cast waits;
 * - a scenario: the world `cantrip sim` builds, stepped tick by tick with its
 *   casts due.
 *
 * A file that cannot be read, a spell that does not compile or a bad
 * scenario becomes a ProgramFailure with the exit code the CLI gives
 * (66 unreadable, 65 bad data), and the located messages an editor links to
 * their lines.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { Diagnostic } from '../../compiler/diagnostics.js';
import type { BreedData } from '../../runtime/entities/breeds.js';
import { BreedError, WorldError } from '../../runtime/errors.js';
import { describeEvent, EntityNames, type EntityId } from '../../runtime/events/events.js';
import { declaredOnlyHosts } from '../../runtime/host/declared-hosts.js';
import { parseScenario, startScenario, type ScenarioRun } from '../../runtime/scenario/scenario.js';
import { World } from '../../runtime/world/world.js';
import { DEFAULT_BUDGETS } from '../../vm/budgets.js';
import { VerifyError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import type { Module } from '../../vm/module.js';
import type { Value } from '../../vm/value.js';
import { VM } from '../../vm/vm.js';
import { readApiFile } from '../api-file.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { CLI_HOSTS } from '../hosts.js';
import { decodeSourceText, readInputBytes, readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { compileSource, loadBytecode } from '../load-module.js';
import { loadProject } from '../project-config.js';
import type { CastArgument, LaunchPlan } from './launch-config.js';

/** A message about a place in a file (a compile error), which an editor shows as a link. */
export interface LocatedMessage {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

/** Why the program cannot start: the exit code `cantrip run` / `sim` would give, and what to show. */
export class ProgramFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly located: readonly LocatedMessage[] = [],
  ) {
    super(message);
  }
}

/** A loaded source file and the VM that runs it. */
export interface LoadedSource {
  readonly path: string;
  readonly vm: VM;
  /** Its top-level script ran before the debugger could attach (world kinds): lines only it runs are never hit. */
  readonly scriptRanAlready: boolean;
}

export interface DebugProgram {
  readonly kind: LaunchPlan['kind'];
  readonly sources: readonly LoadedSource[];
  readonly world: World | null;
  /** The one cast that stops (a cast launch), or null: every fiber may stop (a script, a scenario). */
  readonly onlySpell: string | null;
  /** Run the beginning: the script, or the cast. Null for a scenario, which begins with its first tick. */
  begin(): Fiber | null;
  /** One world step (with a scenario's casts due); false when there is nothing more to step (a scenario's last tick ran, or no world). */
  tick(): boolean;
  /** The world's time and tick, to say where a waiting cast is. */
  readonly clock: { readonly time: number; readonly steps: number } | null;
}

/** Where program text and runtime errors go. */
export interface ProgramOutput {
  print(text: string): void;
  /** A world event, as `cantrip sim` describes it, and whether it is an error. */
  event(text: string, isError: boolean): void;
}

export async function buildProgram(plan: LaunchPlan, io: CliIO, out: ProgramOutput): Promise<DebugProgram> {
  try {
    if (plan.kind === 'script') return await scriptProgram(plan, io, out);
    if (plan.kind === 'cast') return await castProgram(plan, io, out);
    return scenarioProgram(plan, io, out);
  } catch (error) {
    throw asFailure(error);
  }
}

async function scriptProgram(plan: Extract<LaunchPlan, { kind: 'script' }>, io: CliIO, out: ProgramOutput): Promise<DebugProgram> {
  const module = await loadProgramModule(plan.program, CLI_HOSTS, io);
  const vm = new VM(module, {
    hosts: CLI_HOSTS,
    fuel: plan.fuel,
    maxHeap: plan.maxHeap ?? DEFAULT_BUDGETS.maxHeap,
    // As `cantrip run`: the heap budget counts what the script keeps alive, and its output is the terminal's without a fuel limit.
    heapCounts: 'retained',
    ...(plan.fuel === Infinity ? { maxOutput: Infinity } : {}),
    print: (text) => out.print(text),
  });
  return {
    kind: 'script',
    sources: [{ path: plan.program, vm, scriptRanAlready: false }],
    world: null,
    onlySpell: null,
    begin: () => vm.runScript(),
    tick: () => false,
    clock: null,
  };
}

async function castProgram(plan: Extract<LaunchPlan, { kind: 'cast' }>, io: CliIO, out: ProgramOutput): Promise<DebugProgram> {
  const project = loadProject(plan.program, io);
  if (project.problems.length > 0) throw new ProgramFailure(project.problems.join('\n'), EXIT.dataError);
  const gameHosts = project.apiFile === null ? [] : declaredOnlyHosts(readApiFile(project.apiFile, io));
  const world = new World({ ...plan.world, seed: 1, budgets: worldBudgets(plan), hosts: gameHosts });
  describeEvents(world, out);
  const module = await loadProgramModule(plan.program, world.hosts, io);
  if (!module.spells.some((s) => s.name === plan.spell)) {
    const names = module.spells.map((s) => s.name);
    throw new ProgramFailure(`${plan.program} has no spell '${plan.spell}'${names.length > 0 ? ` (it has ${names.join(', ')})` : ' (it declares none)'}.`, EXIT.usage);
  }
  world.loadModule(module, plan.program);
  if (project.breeds !== null) world.loadBreeds(breedsWithLoadedSpells(project.breeds.source as BreedData, new Set(world.spellNames()), out));
  else if (plan.args.some((a) => a.kind === 'entity')) {
    throw new ProgramFailure(`The cast's arguments spawn entities, but no cantrip.json with breeds was found above ${plan.program}.`, EXIT.usage);
  }
  const vm = world.spellVm(plan.spell)!;
  // world.cast's first two arguments are the caster and the target (entities or nil); the rest follow as they are.
  const [casterArg, targetArg, ...rest] = plan.args;
  const caster = castEntity(world, casterArg, 0, 'caster', plan.world);
  const target = castEntity(world, targetArg, 1, 'target', plan.world);
  const extra = rest.map((arg, i) => argumentValue(world, arg, i + 2, plan.world));
  return {
    kind: 'cast',
    sources: [{ path: plan.program, vm, scriptRanAlready: true }],
    world,
    onlySpell: plan.spell,
    begin: () => world.cast(plan.spell, caster, target, extra).fiber,
    tick: () => {
      world.step();
      return true;
    },
    clock: worldClock(world),
  };
}

function scenarioProgram(plan: Extract<LaunchPlan, { kind: 'scenario' }>, io: CliIO, out: ProgramOutput): DebugProgram {
  const file = plan.scenario;
  const parsed = parseScenario(decodeSourceText(file, readInputBytes(file, io)));
  const local = (path: string): string => (isAbsolute(path) ? path : join(dirname(file), path));
  const scenario = {
    ...parsed,
    breeds: local(parsed.breeds),
    spells: parsed.spells.map(local),
    world: { ...parsed.world, ...(plan.fuel === Infinity ? {} : { fuel: plan.fuel }) },
  };
  // The game's functions, declared in the project's API file, record a host-call event each (as `cantrip sim --api`).
  const project = loadProject(file, io);
  const hosts = project.apiFile === null ? undefined : declaredOnlyHosts(readApiFile(project.apiFile, io));
  const run: ScenarioRun = startScenario(scenario, { readBytes: (p) => readInputBytes(p, io), readText: (p) => decodeSourceText(p, readInputBytes(p, io)) }, { hosts });
  describeEvents(run.world, out);
  run.world.flush();
  const ticks = plan.ticks ?? scenario.ticks ?? 100;
  const sources = new Map<string, LoadedSource>();
  for (const spell of run.world.spellNames()) {
    const vm = run.world.spellVm(spell);
    if (vm !== null && !sources.has(vm.module.sourceName)) sources.set(vm.module.sourceName, { path: vm.module.sourceName, vm, scriptRanAlready: true });
  }
  return {
    kind: 'scenario',
    sources: [...sources.values()],
    world: run.world,
    onlySpell: null,
    begin: () => null,
    tick: () => {
      if (run.ticksRun >= ticks) return false;
      run.step();
      return true;
    },
    clock: worldClock(run.world),
  };
}

/** A .spell compiled (its errors located, for the editor) or a .spb verified. */
async function loadProgramModule(path: string, hosts: Parameters<typeof compileSource>[2], io: CliIO): Promise<Module> {
  const input = readSpellInput(path, io);
  if (input.kind === 'bytecode') return loadBytecode(path, input.bytes, hosts);
  const { module, diagnostics } = await compileSource(input.text, path, hosts);
  if (module !== null) return module;
  throw compileFailure(path, diagnostics);
}

function compileFailure(path: string, diagnostics: readonly Diagnostic[]): ProgramFailure {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const located = errors.map((d) => ({ path, line: d.line, column: d.column, text: `${path}:${d.line}:${d.column}: error: ${d.message}` }));
  return new ProgramFailure(`${path} does not compile.`, EXIT.dataError, located);
}

function worldBudgets(plan: LaunchPlan): { fuel?: number; maxHeap?: number } {
  return { ...(plan.fuel === Infinity ? {} : { fuel: plan.fuel }), ...(plan.maxHeap === null ? {} : { maxHeap: plan.maxHeap }) };
}

function worldClock(world: World): DebugProgram['clock'] {
  return {
    get time() {
      return world.time;
    },
    get steps() {
      return world.steps;
    },
  };
}

/**
 * A cast launch loads one file: a breed's spell that lives in another file
 * (a troll's `tick: wander`) is left out of this world, and said so, rather
 * than refusing the whole project's breeds.
 */
function breedsWithLoadedSpells(data: BreedData, loaded: ReadonlySet<string>, out: ProgramOutput): BreedData {
  const breeds = data.breeds.map((breed) => {
    if (breed.spells === undefined) return breed;
    const kept = Object.entries(breed.spells).filter(([slot, spell]) => {
      if (spell === undefined || loaded.has(spell)) return true;
      out.event(`note: ${breed.name}'s ${slot} spell '${spell}' is in another file: it does not run in this world.`, false);
      return false;
    });
    return { ...breed, spells: Object.fromEntries(kept) };
  });
  return { ...data, breeds };
}

type WorldSize = { readonly width: number; readonly height: number };

/** The caster or the target: an entity spawned for it, or nil. */
function castEntity(world: World, arg: CastArgument | undefined, index: number, role: string, size: WorldSize): EntityId | null {
  if (arg === undefined || (arg.kind === 'value' && arg.value === null)) return null;
  if (arg.kind === 'value') throw new ProgramFailure(`'args[${index}]' is the ${role}: an entity ({ "breed": "Troll" }) or null, got ${JSON.stringify(arg.value)}.`, EXIT.usage);
  return spawnFor(world, arg, index, size);
}

/** An argument after the caster and the target: a value, or a spawned entity. */
function argumentValue(world: World, arg: CastArgument, index: number, size: WorldSize): Value {
  return arg.kind === 'value' ? arg.value : world.entityRef(spawnFor(world, arg, index, size));
}

/** An entity spawned for an argument, by default beside the world's centre (one apart per argument). */
function spawnFor(world: World, arg: Extract<CastArgument, { kind: 'entity' }>, index: number, size: WorldSize): EntityId {
  return world.spawn(arg.breed, arg.x ?? size.width / 2 + 2 * index, arg.y ?? size.height / 2);
}

/** Every world event to the editor's console as `cantrip sim` prints it; a print is the program's output. */
function describeEvents(world: World, out: ProgramOutput): void {
  const names = new EntityNames();
  world.on((e) => {
    names.observe(e);
    if (e.type === 'print') out.print(e.text);
    else if (e.type === 'cast-error') out.event(e.trace, true);
    else out.event(describeEvent(e, names.breedOf), false);
  });
}

/** The runtime's and CLI's errors about bad input, as the exit code the CLI gives for them. */
function asFailure(error: unknown): unknown {
  if (error instanceof ProgramFailure) return error;
  if (error instanceof CliFailure) return new ProgramFailure(error.message.replace(/^cantrip: /, ''), error.exitCode);
  if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) {
    return new ProgramFailure(error.message.replace(/^Scenario: /, ''), EXIT.dataError);
  }
  return error;
}
