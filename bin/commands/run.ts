/**
 * `cantrip run <file>`: compile (or load) a spell file and run its top-level
 * script, printing what it prints. Runtime errors print clox's trace.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { CLI_HOSTS } from '../hosts.js';
import { SpellRuntimeError, VerifyError } from '../../vm/errors.js';
import type { Module } from '../../vm/module.js';
import { DEFAULT_BUDGETS, VM, type Tier } from '../../vm/vm.js';
import type { CliCommand, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { readSpellInput } from '../input.js';
import type { CliIO } from '../io.js';
import { badBytecode, loadModule } from '../load-module.js';

interface RunOptions {
  readonly fuel?: number;
  readonly maxHeap?: number;
  readonly tier?: Tier;
}

const TIERS: readonly Tier[] = ['auto', 'interpreter', 'compiled'];

export const runCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('run')
      .description('compile and run a spell file (.spell source or .spb bytecode)')
      .argument('<file>', 'the .spell or .spb file to run')
      .option('--fuel <n>', 'stop after about n instructions (default: no limit)', parseFuel)
      .option('--max-heap <n>', `stop when the script keeps more than n heap units alive (default: ${DEFAULT_BUDGETS.maxHeap})`, parseMaxHeap)
      .option(
        '--tier <tier>',
        'auto: compile hot functions to JavaScript (default); interpreter: never; compiled: every function before it runs',
        parseTier,
      )
      .action(async (file: string, options: RunOptions) => {
        context.setExitCode(await runFile(file, options, context.io));
      });
  },
};

export function parseFuel(value: string): number {
  return positiveWholeNumber(value, 'fuel');
}

function parseTier(value: string): Tier {
  if ((TIERS as readonly string[]).includes(value)) return value as Tier;
  throw new InvalidArgumentError(`tier must be one of ${TIERS.join(', ')}.`);
}

function parseMaxHeap(value: string): number {
  return positiveWholeNumber(value, 'max-heap');
}

function positiveWholeNumber(value: string, option: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`${option} must be a positive whole number.`);
  }
  return n;
}

async function runFile(file: string, options: RunOptions, io: CliIO): Promise<number> {
  const module = await loadModule(readSpellInput(file, io), CLI_HOSTS);
  return runModule(file, module, { fuel: options.fuel ?? Infinity, maxHeap: options.maxHeap ?? DEFAULT_BUDGETS.maxHeap, tier: options.tier ?? 'auto' }, io);
}

/** The budgets `run` gives a script: fuel (Infinity: none), and the heap units it may keep alive; and the tier it runs on. */
export interface ScriptLimits {
  readonly fuel: number;
  readonly maxHeap: number;
  readonly tier?: Tier;
}

/**
 * Runs the script; the exit code is 0, or 70 for a runtime error (printed as
 * clox does). The heap budget counts what the script keeps alive, not what
 * it ever allocated (`heapCounts: 'retained'`): an ordinary program that
 * makes much garbage runs to the end, a heap bomb still ends with exit 70.
 */
export function runModule(file: string, module: Module, limits: ScriptLimits, io: CliIO): number {
  const { fuel, maxHeap, tier } = limits;
  let vm: VM;
  let printed = false;
  try {
    vm = new VM(module, {
      hosts: CLI_HOSTS,
      fuel,
      maxHeap,
      heapCounts: 'retained',
      ...(tier !== undefined ? { tier } : {}),
      // A script's stdout is the terminal's, as clox's is: unlimited with unlimited fuel, else the default budget.
      ...(fuel === Infinity ? { maxOutput: Infinity } : {}),
      print: (text) => {
        printed = true;
        io.stdout(text + '\n');
      },
    });
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
