/**
 * The browser page against the real `cantrip serve --zones 2x1` (built:
 * dist/, as `npm test` leaves it): two players join in different zones, one
 * walks towards the border and each sees the other once they are within
 * interest range across it; the walker crosses into the other zone's room
 * keeping its avatar and view. A cast that fails in the world shows its
 * error, and the page keeps working. Skips (with a notice) where Debian's
 * Chromium is not installed.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/throwaway-redis.js';
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from './browser.js';
import { needBuild, startServe, stopServe, writePageScenario } from './cantrip-serve.js';
import { clickEntity, crossTheBorder, joinAt as joinPage, pageState as state, screenshot } from './serve-page-driver.js';

const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

let dir: string;
let server: ChildProcess | undefined;
let url: string;
let browser: { context: BrowserContext; close(): Promise<void> };

const joinAt = (query: string) => joinPage(browser.context, url, query);

describe.skipIf(!available)('the zone server page in Chromium (cantrip serve --zones 2x1)', () => {
  beforeAll(async () => {
    needBuild();
    dir = mkdtempSync(join(tmpdir(), 'cantrip-serve-page-'));
    const port = await freePort();
    server = await startServe(writePageScenario(dir), port, ['--zones', '2x1']);
    url = `http://127.0.0.1:${port}/`;
    browser = await launchChromium({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
    await stopServe(server);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('two players in different zones see each other within range across the border; the walker crosses keeping its avatar and view', async () => {
    const west = await joinAt('name=West&x=8&y=10');
    const east = await joinAt('name=East&x=24&y=10');
    // The page joins with the compact encoding and shows a player's name.
    await west.page.waitForFunction(() => window.servePage!.state().entities.some((e) => e.name === 'West'));
    // 16 apart, interest 10, walking at 4 units a second: West sees East from x 14, 1.5 s before the border.
    await crossTheBorder(west, east, 'serve-zones');
    await west.page.close();
    await east.page.close();
  });

  it('shows a cast that fails in the world as an error, and the next cast still lands', async () => {
    const { page, problems } = await joinAt('name=Caster&x=9&y=10');
    await page.waitForFunction(() => window.servePage!.state().entities.length >= 2);
    const s = await state(page);
    const statue = s.entities.find((e) => e.key !== s.avatar && e.x === 6 && e.y === 10)!;
    expect(statue).toBeDefined();
    expect(s.spells).toEqual(expect.arrayContaining(['smite', 'fizzle']));
    await page.locator('#spells .spell', { hasText: 'fizzle' }).click();
    await clickEntity(page, statue.key);
    await expect.poll(() => page.locator('#error-banner').textContent()).toMatch(/fizzle .*failed/);
    await screenshot(page, 'serve-zones-cast-error');
    await page.locator('#spells .spell', { hasText: 'smite' }).click();
    await clickEntity(page, statue.key);
    await page.waitForFunction((k) => window.servePage!.state().entities.find((e) => e.key === k)!.health < 40, statue.key);
    await screenshot(page, 'serve-zones-smite');
    expect(problems).toEqual([]);
    await page.close();
  });
});
