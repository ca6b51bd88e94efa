/**
 * The world kinds of a launch (program.ts says what a launch debugs): a
 * spell cast in a world of the project's breeds, and a scenario stepped as
 * `cantrip sim` steps it. Kept apart so that debugging a script never loads
 * the world runtime.
 */
import type { BreedData } from '../../runtime/entities/breeds.js';
import { WorldError } from '../../runtime/errors.js';
import { describeEvent, EntityNames, type EntityId } from '../../runtime/events/events.js';
import { declaredOnlyHosts } from '../../runtime/host/declared-hosts.js';
import { parseScenario, startScenario, type ScenarioRun } from '../../runtime/scenario/scenario.js';
import { BUILTIN_ENTITY_PROPERTIES, World } from '../../runtime/world/world.js';
import type { Value } from '../../vm/value.js';
import { EXIT } from '../exit-codes.js';
import { decodeSourceText, readInputBytes } from '../input.js';
import type { CliIO } from '../io.js';
import { Projects } from '../project-config.js';
import { checkScenarioSpells, scenarioPaths } from '../commands/scenario-check.js';
import type { CastArgument, LaunchPlan } from './launch-config.js';
import { loadProgramModule, ProgramFailure, type DebugProgram, type LoadedSource, type ProgramOutput } from './program.js';

export async function castProgram(plan: Extract<LaunchPlan, { kind: 'cast' }>, io: CliIO, out: ProgramOutput): Promise<DebugProgram> {
  // The project as every command reads it (a cantrip.json that cannot be used stops the launch, exit 65); the game's functions record a host-call event each.
  const project = new Projects(io).ofOrFail(plan.program);
  const gameHosts = declaredOnlyHosts(project.gameHosts);
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
    entityProperties: BUILTIN_ENTITY_PROPERTIES,
    onlySpell: plan.spell,
    begin: () => world.cast(plan.spell, caster, target, extra).fiber,
    tick: () => {
      world.step();
      return true;
    },
    clock: worldClock(world),
  };
}

export async function scenarioProgram(plan: Extract<LaunchPlan, { kind: 'scenario' }>, io: CliIO, out: ProgramOutput): Promise<DebugProgram> {
  const file = plan.scenario;
  const parsed = scenarioPaths(file, parseScenario(decodeSourceText(file, readInputBytes(file, io))));
  const scenario = { ...parsed, world: { ...parsed.world, ...(plan.fuel === Infinity ? {} : { fuel: plan.fuel }) } };
  // As `cantrip sim` does: the project's game functions record a host-call event each, and a spell calling a name
  // nothing defines stops the launch with check's report before the world runs.
  const project = new Projects(io).ofOrFail(file);
  await checkScenarioSpells(file, scenario.spells, { hosts: project.hosts, apiFile: project.apiFile, explainUndefined: (names) => (project.apiFile === null ? noApiNote(names) : null) }, io);
  const hosts = project.gameHosts.length === 0 ? undefined : declaredOnlyHosts(project.gameHosts);
  const run: ScenarioRun = startScenario(scenario, { readBytes: (p) => readInputBytes(p, io), readText: (p) => decodeSourceText(p, readInputBytes(p, io)) }, { hosts });
  describeEvents(run.world, out);
  run.world.flush();
  const ticks = plan.ticks ?? scenario.ticks ?? 100;
  let castsDone = false;
  const sources = new Map<string, LoadedSource>();
  for (const spell of run.world.spellNames()) {
    const vm = run.world.spellVm(spell);
    if (vm !== null && !sources.has(vm.module.sourceName)) sources.set(vm.module.sourceName, { path: vm.module.sourceName, vm, scriptRanAlready: true });
  }
  return {
    kind: 'scenario',
    sources: [...sources.values()],
    world: run.world,
    entityProperties: BUILTIN_ENTITY_PROPERTIES,
    onlySpell: null,
    begin: () => null,
    // Half a tick at a time: the casts due, then the step, so a cast that stops is shown before the world moves on.
    tick: () => {
      if (run.ticksRun >= ticks) return false;
      if (castsDone) run.step();
      else run.castDue();
      castsDone = !castsDone;
      return true;
    },
    clock: worldClock(run.world),
  };
}

/** check's note suggests `--api`, which a launch does not take: where a debugged scenario's game functions come from instead. */
function noApiNote(names: readonly string[]): string {
  const list = names.map((n) => `'${n}'`).join(', ');
  return (
    `note: ${list} ${names.length === 1 ? 'is' : 'are'} not a built-in and not declared in this file: a cast that reaches ${names.length === 1 ? 'it' : 'one'} fails with "Undefined variable". ` +
    `If ${names.length === 1 ? 'it is one of' : 'they are'} your game's functions, name the game's API file in a cantrip.json beside the scenario ({ "api": "game-api.json" }).`
  );
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
  const missing = new Set<string>();
  const breeds = data.breeds.map((breed) => {
    if (breed.spells === undefined) return breed;
    const kept = Object.entries(breed.spells).filter(([, spell]) => spell === undefined || loaded.has(spell) || !missing.add(spell));
    return { ...breed, spells: Object.fromEntries(kept) };
  });
  if (missing.size > 0) out.event(`note: the breeds' spells in other files do not run in this world: ${[...missing].join(', ')}.`, false);
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

/** An entity spawned for an argument, by default beside the world's centre (one apart per argument); a breed it cannot spawn is the launch's mistake. */
function spawnFor(world: World, arg: Extract<CastArgument, { kind: 'entity' }>, index: number, size: WorldSize): EntityId {
  try {
    return world.spawn(arg.breed, arg.x ?? size.width / 2 + 2 * index, arg.y ?? size.height / 2);
  } catch (error) {
    if (error instanceof WorldError) throw new ProgramFailure(`'args[${index}]': ${error.message}`, EXIT.usage);
    throw error;
  }
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
