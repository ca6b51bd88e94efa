#!/usr/bin/env node
/**
 * `npm run fuzz`: the fuzz suites for longer, from a random seed.
 *
 *   node tests/fuzz/run-fuzz.mjs [--seconds-per-property 30] [--seed 123] [--scale 100000]
 *
 * Every property in tests/fuzz (see fuzz-settings.ts) runs until its time
 * limit (or scale × its CI case count), on vitest's two workers, so the
 * default takes about 5 minutes; vm/verified-run (fixed count) runs once as
 * in CI. Prints the seed first —
 * a failure prints its counterexample and the command that replays it —
 * then the cases run per property and in total.
 */

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value)) {
    console.error(`run-fuzz: --${name} needs a number`);
    process.exit(64);
  }
  return value;
}

const seconds = option('seconds-per-property', 30);
const seed = option('seed', Math.floor(Math.random() * 0x7fffffff));
const scale = option('scale', 100_000);
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cantrip-fuzz-')), 'report.jsonl');

console.log(`Cantrip fuzz: seed ${seed}, up to ${seconds} s per property (replay with --seed ${seed})\n`);

const started = Date.now();
const vitest = spawnSync(
  process.execPath,
  [path.join(repo, 'node_modules/vitest/vitest.mjs'), 'run', 'tests/fuzz', 'vm/verified-run.test.ts', '--testTimeout', String((seconds + 120) * 1000)],
  {
    cwd: repo,
    stdio: 'inherit',
    env: {
      ...process.env,
      CANTRIP_FUZZ_SEED: String(seed),
      CANTRIP_FUZZ_SCALE: String(scale),
      CANTRIP_FUZZ_SECONDS: String(seconds),
      CANTRIP_FUZZ_REPORT: report,
    },
  },
);

const lines = fs.existsSync(report) ? fs.readFileSync(report, 'utf8').trim().split('\n').filter(Boolean) : [];
const byName = new Map();
for (const line of lines) {
  const { name, runs, failed } = JSON.parse(line);
  const entry = byName.get(name) ?? { runs: 0, failed: false };
  entry.runs += runs;
  entry.failed ||= failed;
  byName.set(name, entry);
}
/** Suites outside fuzz-settings.ts, with the case counts they always run. */
const FIXED = { 'vm/verified-run (fixed)': 3_000 };
let total = 0;
console.log('\ncases per property:');
for (const [name, { runs, failed }] of [...byName].sort()) {
  total += runs;
  console.log(`  ${name.padEnd(32)} ${String(runs).padStart(10)}${failed ? '  FAILED' : ''}`);
}
for (const [name, runs] of Object.entries(FIXED)) {
  total += runs;
  console.log(`  ${name.padEnd(32)} ${String(runs).padStart(10)}`);
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`\ntotal: ${total.toLocaleString('en')} cases in ${minutes} min, seed ${seed}`);
process.exit(vitest.status ?? 1);
