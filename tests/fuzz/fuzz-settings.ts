/**
 * How every fuzz property in tests/fuzz and tests/sandbox runs.
 *
 * In CI (no environment variables) each property runs a fixed number of
 * cases from a fixed seed, so CI is reproducible. `npm run fuzz`
 * (tests/fuzz/run-fuzz.mjs) sets:
 *
 * - CANTRIP_FUZZ_SEED    base seed (each property derives its own from it and its name);
 * - CANTRIP_FUZZ_SCALE   multiplies every property's CI case count;
 * - CANTRIP_FUZZ_SECONDS stops each property after this long (the cases run so far count);
 * - CANTRIP_FUZZ_REPORT  a file to which each property appends one JSON line
 *                        {name, runs, seed, ms, failed} so the runner can total the cases.
 *
 * A failure throws fast-check's report (counterexample, seed, path) headed by
 * the exact command that replays it.
 */

import * as fs from 'node:fs';
import fc from 'fast-check';

/** The seed CI uses when CANTRIP_FUZZ_SEED is not set. */
export const CI_SEED = 20_251_121;

function envNumber(name: string): number | null {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** A stable 31-bit hash, so each property gets its own seed from the base seed. */
function hashName(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 1;
}

export interface FuzzRun {
  readonly seed: number;
  readonly numRuns: number;
  readonly timeLimitMs: number | null;
}

/** The seed, case count and time limit a property named `name` runs with (`ciRuns` cases in CI). */
export function fuzzRun(name: string, ciRuns: number): FuzzRun {
  const base = envNumber('CANTRIP_FUZZ_SEED') ?? CI_SEED;
  const scale = envNumber('CANTRIP_FUZZ_SCALE') ?? 1;
  const seconds = envNumber('CANTRIP_FUZZ_SECONDS');
  return {
    seed: (base ^ hashName(name)) | 0,
    numRuns: Math.max(1, Math.round(ciRuns * Math.max(scale, 0))),
    timeLimitMs: seconds !== null && seconds > 0 ? seconds * 1000 : null,
  };
}

/**
 * Run a fast-check property like `fc.assert`, but with the suite's seed and
 * budget, counting the cases and naming the replay command on failure.
 * Returns the number of cases run.
 */
export function checkProperty<Ts>(name: string, property: fc.IProperty<Ts>, ciRuns: number): number {
  const run = fuzzRun(name, ciRuns);
  const started = Date.now();
  const details = fc.check(property, {
    seed: run.seed,
    numRuns: run.numRuns,
    ...(run.timeLimitMs !== null ? { interruptAfterTimeLimit: run.timeLimitMs, markInterruptAsFailure: false } : {}),
  });
  report(name, details.numRuns, run.seed, Date.now() - started, details.failed);
  if (details.failed) {
    const base = process.env.CANTRIP_FUZZ_SEED ?? String(CI_SEED);
    const header =
      `Fuzz property "${name}" failed after ${details.numRuns} cases (seed ${run.seed}).\n` +
      `Replay: CANTRIP_FUZZ_SEED=${base} CANTRIP_FUZZ_SCALE=${process.env.CANTRIP_FUZZ_SCALE ?? 1}` +
      `${run.timeLimitMs !== null ? ` CANTRIP_FUZZ_SECONDS=${run.timeLimitMs / 1000}` : ''} npx vitest run <this file>\n`;
    // Printed as well as thrown: a long fuzz run's log keeps it even if the reporter truncates.
    const message = header + (fc.defaultReportMessage(details) ?? '');
    console.error(message);
    throw new Error(message);
  }
  return details.numRuns;
}

function report(name: string, runs: number, seed: number, ms: number, failed: boolean): void {
  const file = process.env.CANTRIP_FUZZ_REPORT;
  if (!file) return;
  fs.appendFileSync(file, JSON.stringify({ name, runs, seed, ms, failed }) + '\n');
}

/** Messages that mean a JavaScript exception got through and was only turned into text. */
export const LEAKED_JS_ERROR =
  /Internal error|internal error|Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|undefined \(reading|Maximum call stack|(?:Host function '[^']*'|Method '[^']*' of \w+|Property '[^']*' of \w+|Comparing \w+) failed: |\bat .+:\d+:\d+\)?$/m;

/** True when nothing was added to Object.prototype (a spell or a breed file must never reach it). */
export function prototypesClean(): boolean {
  const probe: Record<string, unknown> = {};
  return (
    Object.getOwnPropertyNames(Object.prototype).every((k) => PRISTINE_OBJECT_PROTOTYPE.has(k)) &&
    Object.getOwnPropertyNames(Array.prototype).every((k) => PRISTINE_ARRAY_PROTOTYPE.has(k)) &&
    probe['x'] === undefined &&
    probe['hp'] === undefined &&
    Object.getPrototypeOf(probe) === Object.prototype
  );
}

const PRISTINE_OBJECT_PROTOTYPE = new Set(Object.getOwnPropertyNames(Object.prototype));
const PRISTINE_ARRAY_PROTOTYPE = new Set(Object.getOwnPropertyNames(Array.prototype));
