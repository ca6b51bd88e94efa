/**
 * What a `launch` debugs, built from its plan: the VMs of the loaded
 * source files (where breakpoints go), the world when there is one, and how
 * the program begins and moves on. Three kinds, as the CLI runs them:
 *
 * - a script: the file's top level on one VM, as `cantrip run` runs it
 *   (with the game's functions of its cantrip.json declared, as there);
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
import type { Diagnostic } from '../../compiler/diagnostics.js';
import { BreedError, WorldError } from '../../runtime/errors.js';
import type { World } from '../../runtime/world/world.js';
import { DEFAULT_BUDGETS } from '../../vm/budgets.js';
import { VerifyError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import type { Module } from '../../vm/module.js';
import { VM } from '../../vm/vm.js';
import { scriptHosts, scriptVmOptions } from '../commands/run-file.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { compileSource, loadBytecode } from '../load-module.js';
import type { LaunchPlan } from './launch-config.js';

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
  /** The properties every entity has (the world's built-in ones), for the variables view; empty without a world. */
  readonly entityProperties: ReadonlySet<string>;
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
    // Loaded only for a world: the runtime's breeds and world are most of what a launch would load otherwise.
    const { castProgram, scenarioProgram } = await import('./world-program.js');
    return plan.kind === 'cast' ? await castProgram(plan, io, out) : await scenarioProgram(plan, io, out);
  } catch (error) {
    throw asFailure(error);
  }
}

async function scriptProgram(plan: Extract<LaunchPlan, { kind: 'script' }>, io: CliIO, out: ProgramOutput): Promise<DebugProgram> {
  const hosts = await scriptHosts(plan.program, io);
  const module = await loadProgramModule(plan.program, hosts, io);
  if (module.spells.length > 0) {
    // As `cantrip run` says when a file only declares spells: the script alone never casts them.
    const names = module.spells.map((s) => s.name).join(', ');
    out.event(`note: ${plan.program} declares spells (${names}); a launch with "program" alone runs its top-level code. Add "spell" (and "args") to cast one in a world.`, false);
  }
  // As `cantrip run` runs it (budgets, heap counted as retained, output), printing to the editor.
  const vm = new VM(module, scriptVmOptions({ fuel: plan.fuel, maxHeap: plan.maxHeap ?? DEFAULT_BUDGETS.maxHeap, hosts }, (text) => out.print(text)));
  return {
    kind: 'script',
    sources: [{ path: plan.program, vm, scriptRanAlready: false }],
    world: null,
    entityProperties: new Set(),
    onlySpell: null,
    begin: () => vm.runScript(),
    tick: () => false,
    clock: null,
  };
}

/** A .spell compiled (its errors located, for the editor) or a .spb verified. */
export async function loadProgramModule(path: string, hosts: Parameters<typeof compileSource>[2], io: CliIO): Promise<Module> {
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

/** The runtime's and CLI's errors about bad input, as the exit code the CLI gives for them. */
function asFailure(error: unknown): unknown {
  if (error instanceof ProgramFailure) return error;
  // A CliFailure may be several lines (each problem of a cantrip.json), each starting `cantrip: `.
  if (error instanceof CliFailure) return new ProgramFailure(error.message.replace(/^cantrip: /gm, ''), error.exitCode);
  if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) {
    return new ProgramFailure(error.message.replace(/^Scenario: /, ''), EXIT.dataError);
  }
  return error;
}
