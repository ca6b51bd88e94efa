/**
 * Playground benchmarks (numbers, not tests), in headless Chromium:
 * - the production bundle size (raw and gzip);
 * - cold start (startup.ts): readyAt, DOMContentLoaded, time to the first
 *   cast and main-thread CPU, each load in a new browser context;
 * - time to interactive (navigation start → editor ready), warm (one browser context);
 * - recompile-and-remark time for a 1,000-line spell per keystroke
 *   (compile + markers + bytecode panel; the budget is one 60 Hz frame, 16.7 ms);
 * - the world panel's tick + render time with 2,000 entities.
 *
 *   node dist/bench/playground/index.js [--quick]      (or via npm run bench)
 */
import { readdirSync, statSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { buildPlayground, chromiumAvailable, CHROMIUM_PATH, repoRoot, startPlayground } from '../../tests/e2e/browser.js';
import { generateSpell } from './spell-generator.js';
import { measureStartup, printStartup } from './startup.js';
import type {} from '../../playground/src/hookTypes.js';

interface Summary {
  median: number;
  p95: number;
  min: number;
  samples: number;
}

function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p95: at(0.95), min: s[0]!, samples: s.length };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export interface BundleSize {
  files: { file: string; bytes: number; gzip: number }[];
  totalBytes: number;
  totalGzip: number;
}

export function bundleSize(outDir: string): BundleSize {
  const files = walk(outDir).map((path) => {
    const data = readFileSync(path);
    return { file: path.slice(outDir.length + 1), bytes: data.length, gzip: gzipSync(data).length };
  });
  return {
    files: files.sort((a, b) => b.bytes - a.bytes),
    totalBytes: files.reduce((n, f) => n + f.bytes, 0),
    totalGzip: files.reduce((n, f) => n + f.gzip, 0),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const ms = (n: number) => `${n.toFixed(2)} ms`;

export async function run(options: { quick?: boolean } = {}): Promise<unknown> {
  const quick = options.quick ?? false;
  console.log('\n== playground');
  const outDir = await buildPlayground();
  const size = bundleSize(outDir);
  console.log(`bundle: ${kb(size.totalBytes)} (${kb(size.totalGzip)} gzip) in ${size.files.length} files`);
  for (const f of size.files.slice(0, 4)) console.log(`  ${f.file.padEnd(40)} ${kb(f.bytes).padStart(9)}  ${kb(f.gzip).padStart(8)} gzip`);
  const results: Record<string, unknown> = { bundle: size };
  if (!chromiumAvailable()) {
    console.log(`(no Chromium at ${CHROMIUM_PATH}: browser measurements skipped)`);
    return results;
  }
  const startup = await measureStartup({ runs: quick ? 3 : 7, outDir });
  if (startup) {
    printStartup(startup);
    results.coldStart = { median: startup.median, min: startup.min, max: startup.max, loads: startup.loads.length };
  }
  const harness = await startPlayground(outDir);
  try {
    // Time to interactive: fresh pages, from navigation start to the editor accepting input.
    const tti: number[] = [];
    for (let i = 0; i < (quick ? 3 : 7); i++) {
      const page = await harness.context.newPage();
      await page.goto(harness.url + '#fresh');
      await page.waitForFunction(() => window.cantrip?.ready === true);
      tti.push(await page.evaluate(() => window.cantrip!.readyAt));
      await page.close();
    }
    results.timeToInteractive = summarize(tti);
    console.log(`time to interactive, warm (one browser context): median ${ms(summarize(tti).median)} (min ${ms(summarize(tti).min)}, ${tti.length} loads)`);

    // Recompile and re-mark a 1,000-line spell after a one-character edit, as each keystroke does.
    const page = await harness.context.newPage();
    await page.goto(harness.url);
    await page.waitForFunction(() => window.cantrip?.ready === true);
    const spell = generateSpell(1000);
    const keystroke = await page.evaluate(
      ({ source, rounds }) => {
        const hook = window.cantrip!;
        hook.setSource(source);
        hook.recompileTimed();
        const times: { total: number; compile: number }[] = [];
        for (let i = 0; i < rounds; i++) {
          hook.typeAt(500, i % 2 === 0 ? ' ' : '');
          times.push(hook.recompileTimed());
        }
        return { times, markers: hook.markers().length, instructions: hook.bytecode().split('\n').length };
      },
      { source: spell, rounds: quick ? 20 : 60 },
    );
    const total = summarize(keystroke.times.map((t) => t.total));
    const compile = summarize(keystroke.times.map((t) => t.compile));
    results.keystroke1000Lines = { total, compileOnly: compile, bytecodeRows: keystroke.instructions };
    console.log(
      `1,000-line spell, per keystroke: compile+markers+bytecode median ${ms(total.median)} (p95 ${ms(total.p95)}); compile+markers alone ${ms(compile.median)}; ${keystroke.instructions} bytecode rows; frame budget 16.7 ms`,
    );

    // World panel: tick + render with 2,000 entities.
    const world = await page.evaluate((frames) => window.cantrip!.benchWorld?.(2000, frames) ?? null, quick ? 30 : 120);
    if (world) {
      results.world2000 = { tick: summarize(world.tick), render: summarize(world.render) };
      console.log(`world panel, 2,000 entities: tick median ${ms(summarize(world.tick).median)}, render median ${ms(summarize(world.render).median)}`);
    } else {
      console.log('world panel: not available in this build');
    }
    await page.close();
  } finally {
    await harness.close();
  }
  const resultsDir = join(repoRoot(), 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'playground.json'), JSON.stringify(results, null, 2) + '\n');
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
