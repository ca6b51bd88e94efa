/**
 * Shared by the end-to-end tests and the playground benchmarks: build the
 * playground with Vite's JS API, serve it, and drive Debian's Chromium
 * through playwright-core with the project's standard headless flags.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { serveDirectory, type StaticServer } from './static-server.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags DEVELOPERS.md fixes; playwright adds --headless and --user-data-dir itself. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** The repository root: found by walking up, so this also works when compiled into dist/. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'playground', 'vite.config.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find playground/vite.config.ts above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

const CONFIG_FILE = process.env.CANTRIP_VITE_CONFIG ?? join(repoRoot(), 'playground', 'vite.config.ts');

/** Build a Vite app into a fresh temporary folder (never clobbers its own output folder). */
async function buildApp(configFile: string, prefix: string): Promise<string> {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), prefix));
  await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  return outDir;
}

/** Build the playground into a fresh temporary folder (never clobbers playground/dist). */
export function buildPlayground(): Promise<string> {
  return buildApp(CONFIG_FILE, 'cantrip-playground-');
}

/** Build the zone server's browser page (playground/serve-page) into a fresh temporary folder (never clobbers dist/serve-page). */
export function buildServePage(): Promise<string> {
  return buildApp(join(repoRoot(), 'playground', 'serve-page', 'vite.config.ts'), 'cantrip-serve-page-');
}

/** Debian's Chromium, headless, with the standard flags and a fresh profile (removed on close). */
export async function launchChromium(viewport = { width: 1600, height: 900 }): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'cantrip-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface PlaygroundHarness {
  readonly url: string;
  readonly context: BrowserContext;
  readonly outDir: string;
  close(): Promise<void>;
}

export async function startPlayground(prebuilt?: string): Promise<PlaygroundHarness> {
  const outDir = prebuilt ?? (await buildPlayground());
  const server: StaticServer = await serveDirectory(outDir);
  const browser = await launchChromium();
  return {
    url: server.url,
    context: browser.context,
    outDir,
    async close() {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Click in the glyph margin, left of a line number: toggles a breakpoint there. */
export async function toggleBreakpoint(page: Page, line: number): Promise<void> {
  const number = page.locator('#editor .line-numbers', { hasText: new RegExp(`^${line}$`) });
  // Monaco re-renders its lines after an edit: wait until this one is laid out (boundingBox is null in between).
  let box = null;
  for (let tries = 0; box === null && tries < 50; tries++) {
    await number.waitFor({ state: 'visible' });
    box = await number.boundingBox();
    if (box === null) await page.waitForTimeout(50);
  }
  if (box === null) throw new Error(`line ${line}'s number never got a box in the editor`);
  await page.mouse.click(box.x - 12, box.y + box.height / 2);
}
