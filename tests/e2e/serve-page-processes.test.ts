/**
 * The browser page against `cantrip serve --zones 2x1 --processes 2 --redis`
 * (built: dist/): the zones run in two worker processes, on the ports after
 * the supervisor's. Two players, each in a zone of its own process, see each
 * other across the border, and the walker crosses into the other process's
 * room keeping its avatar and view. Skips (with a notice) without Debian's
 * Chromium or redis-server.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { freePort, startRedis, type TestRedis } from '../../server/throwaway-redis.js';
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from './browser.js';
import { needBuild, startServe, stopServe, writePageScenario } from './cantrip-serve.js';
import { crossTheBorder, joinAt } from './serve-page-driver.js';

const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

let redis: TestRedis | null = null;
let dir: string;
let server: ChildProcess | undefined;
let port: number;
let browser: { context: BrowserContext; close(): Promise<void> };

describe.skipIf(!available)('the zone server page in Chromium (cantrip serve --processes 2 --redis)', () => {
  beforeAll(async () => {
    needBuild();
    redis = await startRedis();
    if (redis === null) return;
    dir = mkdtempSync(join(tmpdir(), 'cantrip-serve-page-'));
    port = await freePort();
    server = await startServe(writePageScenario(dir), port, ['--zones', '2x1', '--processes', '2', '--redis', redis.url]);
    browser = await launchChromium({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
    await stopServe(server);
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('two players in zones of different processes see each other across the border; the walker crosses to the other process', async (context) => {
    if (redis === null) return context.skip();
    // West opens the page on the supervisor's port (its matchmaking sends the page to the worker running the zone), East on a worker's.
    const west = await joinAt(browser.context, `http://127.0.0.1:${port}/`, 'name=West&x=8&y=10');
    const east = await joinAt(browser.context, `http://127.0.0.1:${port + 1}/`, 'name=East&x=24&y=10');
    await crossTheBorder(west, east, 'serve-processes');
    await west.page.close();
    await east.page.close();
  });
});
