/**
 * What `cantrip run` does (bin/commands/run.ts declares the command): load
 * the module, run its top-level script on the VM, print as clox prints.
 */
import { CLI_HOSTS } from '../hosts.js';
import { HostError, SpellRuntimeError, VerifyError } from '../../vm/errors.js';
import type { HostFunction, HostFunctionSpec } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { DEFAULT_BUDGETS, VM, type Tier, type VMOptions } from '../../vm/vm.js';
import { EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { badBytecode, loadModule } from '../load-module.js';
import { findConfigFile } from '../project-config-file.js';

/** The options `cantrip run` takes (bin/commands/run.ts declares them). */
export interface RunOptions {
  readonly fuel?: number;
  readonly maxHeap?: number;
  readonly tier?: Tier;
}

export async function runFile(file: string, options: RunOptions, io: CliIO): Promise<number> {
  const hosts = await scriptHosts(file, io);
  const module = await loadModule(readSpellInput(file, io), hosts);
  return runModule(file, module, { fuel: options.fuel ?? Infinity, maxHeap: options.maxHeap ?? DEFAULT_BUDGETS.maxHeap, tier: options.tier ?? 'auto', hosts }, io);
}

/**
 * What `run` (and `cantrip dap` debugging a script) compiles and runs
 * against: the built-in functions, and the game's own from the file's
 * cantrip.json (read as every command reads it; a config that cannot be used
 * is exit 65), so a call to one is checked as `check` checks it and, when
 * reached, fails with a sentence saying `run` has no game, not "Undefined
 * variable". Without a cantrip.json nothing more is loaded (the config
 * reader brings the JSON schema validator).
 */
export async function scriptHosts(file: string, io: CliIO): Promise<readonly HostFunction[]> {
  if (findConfigFile(file) === null) return CLI_HOSTS;
  const { Projects } = await import('../project-config.js');
  const project = new Projects(io).ofOrFail(file);
  return [...CLI_HOSTS, ...project.gameHosts.map((spec) => withoutAGame(spec, project.apiFile ?? 'cantrip.json'))];
}

function withoutAGame(spec: HostFunctionSpec, apiFile: string): HostFunction {
  return {
    ...spec,
    impl: () => {
      throw new HostError(`${spec.name}() is one of your game's host functions (${apiFile}): \`cantrip run\` has no game to call it. Cast the spell on a world with \`cantrip sim\`, where each call is recorded.`);
    },
  };
}

/** The budgets `run` gives a script: fuel (Infinity: none), and the heap units it may keep alive; and the tier it runs on. */
export interface ScriptLimits {
  readonly fuel: number;
  readonly maxHeap: number;
  readonly tier?: Tier;
  /** The host functions the script may call; the CLI's built-in ones by default. */
  readonly hosts?: readonly HostFunction[];
}

/**
 * Runs the script; the exit code is 0, or 70 for a runtime error (printed as
 * clox does). The heap budget counts what the script keeps alive, not what
 * it ever allocated (`heapCounts: 'retained'`): an ordinary program that
 * makes much garbage runs to the end, a heap bomb still ends with exit 70.
 */
export function runModule(file: string, module: Module, limits: ScriptLimits, io: CliIO): number {
  let vm: VM;
  let printed = false;
  try {
    vm = new VM(
      module,
      scriptVmOptions(limits, (text) => {
        printed = true;
        io.stdout(text + '\n');
      }),
    );
  } catch (error) {
    if (error instanceof VerifyError) throw badBytecode(file, error);
    throw error;
  }
  try {
    const fiber = vm.runScript();
    if (fiber.state === 'done') {
      if (!printed && module.spells.length > 0) io.stderr(spellsNotCastHint(file, module));
      return EXIT.ok;
    }
    if (fiber.state === 'failed' && fiber.error !== null) return reportRuntimeError(fiber.error, io);
    io.stderr(
      `cantrip: the script paused (state '${fiber.state}'), and \`cantrip run\` has no world to resume it.\n`,
    );
    return EXIT.software;
  } catch (error) {
    if (error instanceof SpellRuntimeError) return reportRuntimeError(error, io);
    throw error;
  }
}

/** The VM options a script runs with under `run` (and under `cantrip dap`, so a debugged script runs as it would). */
export function scriptVmOptions(limits: ScriptLimits, print: (text: string) => void): VMOptions {
  const { fuel, maxHeap, tier, hosts = CLI_HOSTS } = limits;
  return {
    hosts,
    fuel,
    maxHeap,
    heapCounts: 'retained',
    ...(tier !== undefined ? { tier } : {}),
    // A script's stdout is the terminal's, as clox's is: unlimited with unlimited fuel, else the default budget.
    ...(fuel === Infinity ? { maxOutput: Infinity } : {}),
    print,
  };
}

function reportRuntimeError(error: SpellRuntimeError, io: CliIO): number {
  io.stderr(error.format() + '\n');
  return EXIT.software;
}

/**
 * A file that only declares spells prints nothing under `run`, which looks
 * like a failure to a modder; say why, and where spells are cast.
 */
function spellsNotCastHint(file: string, module: Module): string {
  const names = module.spells.map((s) => s.name).join(', ');
  return (
    `cantrip: ${file} declares spells (${names}); \`cantrip run\` only runs its top-level code.\n` +
    `         Cast them on a world with \`cantrip sim <scenario.json>\` (see docs/cli.md) or in the playground.\n`
  );
}
