/**
 * The browser page against `cantrip serve --zones 2x1 --processes 2 --redis`
 * (built: dist/): the zones run in two worker processes, on the ports after
 * the supervisor's. Two players, each in a zone of its own process, see each
 * other across the border, and the walker crosses into the other process's
 * room keeping its avatar and view. A player whose zone's worker is killed
 * (SIGKILL) is playing again as the same avatar without doing anything. Skips (with a notice) without Debian's
 * Chromium or redis-server.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusResponse } from '../../server/protocol.js';
import { freePort, startRedis, type TestRedis } from '../../server/throwaway-redis.js';
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from './browser.js';
import { needBuild, startServe, stopServe, writePageScenario } from './cantrip-serve.js';
import { crossTheBorder, joinAt, pageState, screenshot } from './serve-page-driver.js';

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
    server = await startServe(writePageScenario(dir), port, ['--zones', '2x1', '--processes', '2', '--redis', redis.url, '--snapshot-every', '0.5']);
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

  it("comes back by itself as the same avatar after kill -9 of its zone's worker, and plays on; Leave works", async (context) => {
    if (redis === null) return context.skip();
    const { page, problems } = await joinAt(browser.context, `http://127.0.0.1:${port}/`, 'name=Phoenix&x=6&y=6');
    const before = await pageState(page);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // in a save (every 0.5 s)
    const status = (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as StatusResponse;
    const killedAt = Date.now();
    process.kill(status.zones.find((z) => z.id === before.zone)!.pid, 'SIGKILL');
    await expect.poll(() => page.locator('#log').textContent(), { timeout: 30_000 }).toContain(`Back in zone ${before.zone} as the same avatar.`);
    console.log(`[e2e] the page was back in its zone as the same avatar ${((Date.now() - killedAt) / 1000).toFixed(1)} s after kill -9 of the zone's worker`);
    const back = await pageState(page);
    expect(back.avatar).toBe(before.avatar);
    expect(back.connected).toBe(true);
    // Plays on: holding D walks the avatar east, the new room's views move it.
    const x = back.entities.find((e) => e.key === back.avatar)!.x;
    await page.keyboard.down('KeyD');
    await page.waitForFunction(([k, x0]) => window.servePage!.state().entities.find((e) => e.key === k)!.x > (x0 as number) + 0.5, [back.avatar, x] as const, { timeout: 15_000 });
    await page.keyboard.up('KeyD');
    await screenshot(page, 'serve-processes-after-crash');
    await page.locator('#leave').click();
    await page.waitForFunction(() => !window.servePage!.state().connected);
    expect(problems).toEqual([]);
    await page.close();
  });
});
