/**
 * The `launch` request's arguments, checked: what to debug (a spell file's
 * top-level script, a spell cast on a world, or a scenario) and with which
 * budgets. Every mistake becomes one sentence naming the attribute, for the
 * editor to show; nothing here throws.
 *
 * Editors add attributes of their own (VS Code's `type`, `request`, `name`,
 * `__sessionId` …), so attributes this adapter does not know are ignored.
 */
import { isAbsolute, resolve } from 'node:path';

/** One argument of a cast: a value, or an entity to spawn for it. */
export type CastArgument =
  | { readonly kind: 'value'; readonly value: number | string | boolean | null }
  | { readonly kind: 'entity'; readonly breed: string; readonly x: number | null; readonly y: number | null };

interface Budgets {
  /** Instructions a slice may run (Infinity: none, as `cantrip run` without --fuel). */
  readonly fuel: number;
  /** Heap units the program may keep alive; null: the default. */
  readonly maxHeap: number | null;
}

export type LaunchPlan = Budgets & {
  readonly stopOnEntry: boolean;
  /** Run without stopping (an editor's "Run Without Debugging"). */
  readonly noDebug: boolean;
} & (
    | { readonly kind: 'script'; readonly program: string }
    | {
        readonly kind: 'cast';
        readonly program: string;
        readonly spell: string;
        readonly args: readonly CastArgument[];
        readonly world: { readonly width: number; readonly height: number };
      }
    | { readonly kind: 'scenario'; readonly scenario: string; readonly ticks: number | null }
  );

/** The attributes an editor's launch configuration may set (package.json's configurationAttributes says the same to VS Code). */
export interface LaunchArguments {
  readonly program?: unknown;
  readonly scenario?: unknown;
  readonly spell?: unknown;
  readonly args?: unknown;
  readonly stopOnEntry?: unknown;
  readonly noDebug?: unknown;
  readonly fuel?: unknown;
  readonly maxHeap?: unknown;
  readonly ticks?: unknown;
  readonly world?: unknown;
  readonly cwd?: unknown;
  /** The editor's own (type, request, name, __sessionId …): ignored. */
  readonly [other: string]: unknown;
}

const DEFAULT_WORLD = { width: 100, height: 100 };

export function readLaunchArguments(raw: LaunchArguments): LaunchPlan | { readonly problem: string } {
  try {
    return plan(raw);
  } catch (error) {
    if (error instanceof LaunchProblem) return { problem: error.message };
    throw error;
  }
}

class LaunchProblem extends Error {}

function plan(raw: LaunchArguments): LaunchPlan {
  const cwd = optionalString(raw.cwd, 'cwd') ?? process.cwd();
  const path = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  const common = {
    stopOnEntry: optionalBoolean(raw.stopOnEntry, 'stopOnEntry') ?? false,
    noDebug: optionalBoolean(raw.noDebug, 'noDebug') ?? false,
    fuel: positiveWholeNumber(raw.fuel, 'fuel') ?? Infinity,
    maxHeap: positiveWholeNumber(raw.maxHeap, 'maxHeap'),
  };
  const program = optionalString(raw.program, 'program');
  let scenario = optionalString(raw.scenario, 'scenario');
  if (program !== null && scenario !== null) throw new LaunchProblem("Give either 'program' (a .spell file) or 'scenario' (a scenario .json file), not both.");
  // A scenario given as the program is what the user meant.
  if (program !== null && program.endsWith('.json')) scenario = program;
  if (scenario !== null) {
    if (raw.spell !== undefined || raw.args !== undefined) throw new LaunchProblem("A scenario names its own casts: 'spell' and 'args' go with a 'program', not a 'scenario'.");
    const ticks = wholeNumber(raw.ticks, 'ticks');
    return { ...common, kind: 'scenario', scenario: path(scenario), ticks };
  }
  if (program === null) throw new LaunchProblem("The launch configuration needs 'program': the .spell file to debug (or 'scenario': a scenario .json file).");
  const spell = optionalString(raw.spell, 'spell');
  if (spell === null) {
    if (raw.args !== undefined) throw new LaunchProblem("'args' are the arguments of a cast: give the 'spell' to cast too.");
    return { ...common, kind: 'script', program: path(program) };
  }
  return { ...common, kind: 'cast', program: path(program), spell, args: castArguments(raw.args), world: worldSize(raw.world) };
}

function castArguments(raw: unknown): CastArgument[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new LaunchProblem("'args' must be a list: a value (number, string, true/false, null) or an entity ({ \"breed\": \"Troll\", \"x\": 5, \"y\": 5 }) for each of the spell's parameters.");
  return raw.map((arg: unknown, i): CastArgument => {
    if (arg === null || typeof arg === 'number' || typeof arg === 'string' || typeof arg === 'boolean') {
      if (typeof arg === 'number' && !Number.isFinite(arg)) throw new LaunchProblem(`'args[${i}]' must be a finite number.`);
      return { kind: 'value', value: arg };
    }
    if (typeof arg === 'object' && !Array.isArray(arg)) {
      const { breed, x, y, ...rest } = arg as Record<string, unknown>;
      const unknown = Object.keys(rest);
      if (unknown.length > 0) throw new LaunchProblem(`'args[${i}]' has an unknown field '${unknown[0]}': an entity is { "breed": "Troll", "x": 5, "y": 5 }.`);
      if (typeof breed !== 'string' || breed === '') throw new LaunchProblem(`'args[${i}]' needs "breed": the breed of the entity to spawn for it.`);
      return { kind: 'entity', breed, x: finiteNumber(x, `args[${i}].x`), y: finiteNumber(y, `args[${i}].y`) };
    }
    throw new LaunchProblem(`'args[${i}]' must be a number, a string, true/false, null or an entity ({ "breed": "Troll" }).`);
  });
}

function worldSize(raw: unknown): { width: number; height: number } {
  if (raw === undefined) return DEFAULT_WORLD;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new LaunchProblem("'world' must be an object: { \"width\": 100, \"height\": 100 }.");
  const { width, height } = raw as Record<string, unknown>;
  const size = (v: unknown, name: string, fallback: number) => {
    const n = finiteNumber(v, `world.${name}`);
    if (n !== null && n <= 0) throw new LaunchProblem(`'world.${name}' must be above 0.`);
    return n ?? fallback;
  };
  return { width: size(width, 'width', DEFAULT_WORLD.width), height: size(height, 'height', DEFAULT_WORLD.height) };
}

function optionalString(v: unknown, name: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.trim() === '') throw new LaunchProblem(`'${name}' must be a non-empty string.`);
  return v;
}

function optionalBoolean(v: unknown, name: string): boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw new LaunchProblem(`'${name}' must be true or false.`);
  return v;
}

function finiteNumber(v: unknown, name: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new LaunchProblem(`'${name}' must be a number.`);
  return v;
}

function wholeNumber(v: unknown, name: string): number | null {
  const n = finiteNumber(v, name);
  if (n !== null && (!Number.isSafeInteger(n) || n < 0)) throw new LaunchProblem(`'${name}' must be a whole number ≥ 0, got ${n}.`);
  return n;
}

function positiveWholeNumber(v: unknown, name: string): number | null {
  const n = finiteNumber(v, name);
  if (n !== null && (!Number.isSafeInteger(n) || n <= 0)) throw new LaunchProblem(`'${name}' must be a positive whole number, got ${n}.`);
  return n;
}
