/**
 * `cantrip run <file>`: compile (or load) a spell file and run its top-level
 * script, printing what it prints. Runtime errors print clox's trace.
 *
 * This file only declares the command; the VM and the compiler are loaded
 * when it runs (./run-file.ts), so every other command starts without them.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_BUDGETS } from '../../vm/budgets.js';
import type { Tier } from '../../vm/vm.js';
import type { CliCommand, CommandContext } from '../command.js';
import type { RunOptions } from './run-file.js';

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
        const { runFile } = await import('./run-file.js');
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

