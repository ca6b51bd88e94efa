/**
 * The zone server's browser page in a real headless Chromium, against a
 * fake zone server (fake-zone-server.ts: real Colyseus rooms speaking the
 * protocol over a toy world of two zones): joining, seeing across a zone
 * border, walking into the next zone's room without losing the view,
 * casting by clicking, and a refused cast shown while the page goes on.
 * Skips (with a notice) where Debian's Chromium is not installed.
 */
import { rmSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, buildServePage, chromiumAvailable, launchChromium } from './browser.js';
import { startFakeZoneServer, type FakeZoneServer } from './fake-zone-server.js';
import { clickEntity, crossTheBorder, joinAt as joinPage, pageState as state, screenshot } from './serve-page-driver.js';

const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

let pageDir: string;
let server: FakeZoneServer;
let browser: { context: BrowserContext; close(): Promise<void> };

const joinAt = (query: string) => joinPage(browser.context, server.url, query);

describe.skipIf(!available)('the zone server page in Chromium (fake zone server)', () => {
  beforeAll(async () => {
    pageDir = await buildServePage();
    server = await startFakeZoneServer(pageDir);
    browser = await launchChromium({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (pageDir) rmSync(pageDir, { recursive: true, force: true });
  });

  it('joins, shows the zones, the entities in range and the spells, with no console errors', async () => {
    const { page, problems } = await joinAt('name=Ann&breed=Wizard&x=12&y=10');
    await page.waitForFunction(() => window.servePage!.state().entities.some((e) => e.key === 'troll-west'));
    const s = await state(page);
    expect(s.zone).toBe('z0-0');
    expect(s.spells).toEqual(['zap', 'mend']);
    expect(s.entities.map((e) => e.key).sort()).toEqual([s.avatar, 'troll-west'].sort());
    await expect.poll(() => page.locator('#spells .spell').allTextContents()).toEqual(['1 zap', '2 mend']);
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^zone z0-0 · you: player-\d+/);
    await screenshot(page, 'serve-page-joined');
    // Leave, and join again: a new avatar, the same page.
    await page.locator('#leave').click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('not in the world');
    expect((await state(page)).entities).toEqual([]);
    await page.locator('#join').click();
    await page.waitForFunction((old) => {
      const now = window.servePage!.state();
      return now.avatar !== null && now.avatar !== old && now.entities.some((e) => e.key === now.avatar);
    }, s.avatar);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sees a player across the zone border, then walks into the next zone’s room keeping its avatar and its view', async () => {
    const west = await joinAt('name=West&x=13&y=10');
    const east = await joinAt('name=East&x=23&y=10');
    // 10 apart, interest 8, walking at 4 units a second: West sees East from x 15, 1.25 s before the border.
    await crossTheBorder(west, east, 'serve-page');
    await west.page.close();
    await east.page.close();
  });

  it('casts by clicking: a refused cast shows the server’s error, and the next cast still lands', async () => {
    const { page, problems } = await joinAt('name=Caster&x=11&y=10');
    await page.waitForFunction(() => window.servePage!.state().entities.some((e) => e.key === 'troll-west'));
    const me = (await state(page)).avatar!;
    // zap on yourself: the fake server refuses it (as the real one refuses a bad cast).
    await page.locator('#spells .spell', { hasText: 'zap' }).click();
    await clickEntity(page, me);
    await expect.poll(() => page.locator('#error-banner').textContent()).toContain('zap needs another entity as its target');
    await expect(page.locator('#error-banner').isVisible()).resolves.toBe(true);
    await screenshot(page, 'serve-page-refused-cast');
    // The page keeps working: zap the troll, its health drops in view.
    const before = (await state(page)).entities.find((e) => e.key === 'troll-west')!.health;
    await clickEntity(page, 'troll-west');
    await page.waitForFunction((h) => window.servePage!.state().entities.find((e) => e.key === 'troll-west')!.health < h, before);
    await expect.poll(() => page.locator('#log').textContent()).toMatch(/Troll#troll-west takes 10 damage/);
    await screenshot(page, 'serve-page-cast');
    // Key 2 picks mend.
    await page.keyboard.press('2');
    await expect(page.locator('#spells .spell[aria-pressed="true"]').textContent()).resolves.toBe('2 mend');
    expect(problems).toEqual([]);
    await page.close();
  });
});
