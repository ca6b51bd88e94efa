/**
 * Cold start of the playground in headless Chromium (issue 33): every load
 * runs in a new browser context, so nothing comes from the HTTP cache or a
 * code cache, as on a first visit. For each load it reads
 * - readyAt: the page's own mark (performance.now() when the editor takes input);
 * - wiredAt: when the compiler, runtime and VM (the page's second chunk)
 *   had run, the page was wired and had finished starting (first compile,
 *   world), window.cantrip appearing (builds from
 *   before that split have no such mark: their readyAt);
 * - DOMContentLoaded, from the navigation timing entry;
 * - the bytes transferred before ready (navigation and resource entries);
 * - time to first cast: from navigation start until the console says the
 *   first Cast finished, the button pressed as soon as the page is ready;
 * - the renderer's main-thread CPU time up to that first cast (Chrome's
 *   ThreadTime metric): less swayed than wall-clock times by other work on
 *   a shared machine, so before / after comparisons read it too.
 *
 *   node dist/bench/playground/startup.js [--runs N] [--dir BUILT]...
 *
 * builds the playground first, or measures builds already made (--dir: a
 * folder holding its index.html, e.g. another commit's). With two or more
 * --dir the builds load by turns (A, B, A, B …), so a shared machine's
 * changing load falls on both alike: compare those figures, not runs taken
 * at different times.
 *
 * Figures depend on the machine's load: run it on a quiet machine, and read
 * medians. Nothing here asserts a time.
 */
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { buildPlayground, chromiumAvailable, CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../tests/e2e/browser.js';
import { serveDirectory } from '../../tests/e2e/static-server.js';
import type {} from '../../playground/src/hookTypes.js';

/** A spell that casts without a target, so the first cast needs no click on the map. */
const FIRST_CAST_SPELL = 'spell hello(caster, target) {\n  print "hello from the first cast";\n}\n';

export interface ColdLoad {
  readyAt: number;
  wiredAt: number;
  domContentLoaded: number;
  transferredBytes: number;
  firstCast: number;
  /** Main-thread CPU time (ms) from navigation to the first cast's end. */
  mainThreadCpu: number;
}

export interface StartupFigures {
  loads: ColdLoad[];
  median: ColdLoad;
  min: ColdLoad;
  max: ColdLoad;
}

function pick(loads: ColdLoad[], choose: (values: number[]) => number): ColdLoad {
  const of = (key: keyof ColdLoad) => choose(loads.map((l) => l[key]).sort((a, b) => a - b));
  return {
    readyAt: of('readyAt'),
    wiredAt: of('wiredAt'),
    domContentLoaded: of('domContentLoaded'),
    transferredBytes: of('transferredBytes'),
    firstCast: of('firstCast'),
    mainThreadCpu: of('mainThreadCpu'),
  };
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!;

/** One first visit, in a fresh context: its figures. */
async function coldLoad(browser: Browser, url: string): Promise<ColdLoad> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url);
    await page.waitForFunction(() => window.cantrip?.ready === true, null, { timeout: 60_000, polling: 10 });
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const readyAt = window.cantrip!.readyAt;
      const before = resources.filter((r) => r.responseEnd <= readyAt);
      return {
        readyAt,
        wiredAt: (window.cantrip as { wiredAt?: number }).wiredAt ?? readyAt,
        domContentLoaded: nav?.domContentLoadedEventEnd ?? 0,
        transferredBytes: (nav?.transferSize ?? 0) + before.reduce((n, r) => n + r.transferSize, 0),
      };
    });
    await page.locator('#cast:not([disabled])').click();
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.startsWith('hello finished')), null, { timeout: 60_000, polling: 10 });
    const firstCast = await page.evaluate(() => performance.now());
    const { metrics } = await cdp.send('Performance.getMetrics');
    const mainThreadCpu = (metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
    return { ...timing, firstCast, mainThreadCpu };
  } finally {
    await context.close();
  }
}

/** The link that opens the spell above: made by the page itself (its own encoding), in a throwaway context. */
async function firstCastLink(browser: Browser, url: string): Promise<string> {
  const setup = await browser.newContext();
  try {
    const page = await setup.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.cantrip?.ready === true, null, { timeout: 60_000 });
    return await page.evaluate((source) => window.cantrip!.linkFor(source), FIRST_CAST_SPELL);
  } finally {
    await setup.close();
  }
}

function figuresOf(loads: ColdLoad[]): StartupFigures {
  return { loads, median: pick(loads, median), min: pick(loads, (s) => s[0]!), max: pick(loads, (s) => s.at(-1)!) };
}

/** Cold loads of built playground folders, by turns (one folder built now when none is given); figures per folder, in order. */
export async function compareStartup(options: { runs?: number; outDirs?: readonly string[] } = {}): Promise<StartupFigures[] | null> {
  if (!chromiumAvailable()) {
    console.log(`(no Chromium at ${CHROMIUM_PATH}: start-up not measured)`);
    return null;
  }
  const outDirs = options.outDirs !== undefined && options.outDirs.length > 0 ? options.outDirs : [await buildPlayground()];
  const servers = await Promise.all(outDirs.map((dir) => serveDirectory(dir)));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  try {
    const links: string[] = [];
    for (const server of servers) links.push(await firstCastLink(browser, server.url));
    const loads: ColdLoad[][] = links.map(() => []);
    for (let i = 0; i < (options.runs ?? 7); i++) {
      for (const [at, link] of links.entries()) loads[at]!.push(await coldLoad(browser, link));
    }
    return loads.map(figuresOf);
  } finally {
    await browser.close();
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** Cold loads of one built playground folder (built now when not given). */
export async function measureStartup(options: { runs?: number; outDir?: string } = {}): Promise<StartupFigures | null> {
  const figures = await compareStartup({ ...(options.runs !== undefined ? { runs: options.runs } : {}), ...(options.outDir !== undefined ? { outDirs: [options.outDir] } : {}) });
  return figures?.[0] ?? null;
}

const ms = (n: number) => `${Math.round(n)} ms`;

export function printStartup(figures: StartupFigures): void {
  const { median: m, min, max, loads } = figures;
  console.log(`cold start, ${loads.length} loads (each in a new browser context; median [min–max]):`);
  console.log(`  readyAt            ${ms(m.readyAt)}  [${ms(min.readyAt)}–${ms(max.readyAt)}]`);
  console.log(`  wiredAt            ${ms(m.wiredAt)}  [${ms(min.wiredAt)}–${ms(max.wiredAt)}]`);
  console.log(`  DOMContentLoaded   ${ms(m.domContentLoaded)}  [${ms(min.domContentLoaded)}–${ms(max.domContentLoaded)}]`);
  console.log(`  time to first cast ${ms(m.firstCast)}  [${ms(min.firstCast)}–${ms(max.firstCast)}]`);
  console.log(`  main-thread CPU to first cast ${ms(m.mainThreadCpu)}  [${ms(min.mainThreadCpu)}–${ms(max.mainThreadCpu)}]`);
  console.log(`  transferred before ready ${(m.transferredBytes / 1024).toFixed(0)} KiB`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const values = (name: string) => process.argv.flatMap((arg, at) => (arg === name && process.argv[at + 1] !== undefined ? [process.argv[at + 1]!] : []));
  const dirs = values('--dir');
  compareStartup({ runs: Number(values('--runs')[0] ?? 7), outDirs: dirs })
    .then((figures) => {
      for (const [at, f] of (figures ?? []).entries()) {
        if (dirs.length > 1) console.log(`\n${dirs[at]}`);
        printStartup(f);
      }
    })
    .catch((e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(1);
    });
}
