/**
 * The zone server's browser page in a real headless Chromium, against a
 * fake zone server (fake-zone-server.ts: real Colyseus rooms speaking the
 * protocol over a toy world of two zones): joining, seeing across a zone
 * border, walking into the next zone's room without losing the view,
 * casting by clicking, and a refused cast shown while the page goes on.
 * Skips (with a notice) where Debian's Chromium is not installed.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, buildServePage, chromiumAvailable, launchChromium } from './browser.js';
import { startFakeZoneServer, type FakeZoneServer } from './fake-zone-server.js';
import type {} from '../../playground/serve-page/src/main.js';

const SCREENS = new URL('../../.tmp/screens/', import.meta.url).pathname;
const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

let pageDir: string;
let server: FakeZoneServer;
let browser: { context: BrowserContext; close(): Promise<void> };

interface OpenPage {
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  problems: string[];
}

/** Open the page with the join form filled from the address, join, and wait until the avatar is in view. */
async function joinAt(query: string): Promise<OpenPage> {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}?${query}&join=1`);
  await page.waitForFunction(() => {
    const s = window.servePage?.state();
    return s !== undefined && s.avatar !== null && s.entities.some((e) => e.key === s.avatar);
  });
  return { page, problems };
}

async function state(page: Page) {
  return page.evaluate(() => window.servePage!.state());
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}${name}.png` });
}

/** Click where the page draws the entity `key`. */
async function clickEntity(page: Page, key: string): Promise<void> {
  const at = await page.evaluate((k) => window.servePage!.screenPosition(k), key);
  if (at === null) throw new Error(`${key} is not drawn`);
  const box = (await page.locator('#world').boundingBox())!;
  await page.mouse.click(box.x + at.x, box.y + at.y);
}

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
    const west = await joinAt('name=West&x=15&y=10');
    const east = await joinAt('name=East&x=23&y=10');
    const westKey = (await state(west.page)).avatar!;
    const eastKey = (await state(east.page)).avatar!;
    expect((await state(west.page)).zone).toBe('z0-0');
    expect((await state(east.page)).zone).toBe('z1-0');
    // 8 apart, interest 6: neither sees the other yet.
    expect((await state(west.page)).entities.map((e) => e.key)).not.toContain(eastKey);
    await west.page.keyboard.down('KeyD');
    // West walks east: it sees East across the border while still in its own zone (x 17 to 20), and East sees it.
    const zoneWhenSeen = await west.page.waitForFunction((k) => {
      const s = window.servePage!.state();
      return s.entities.some((e) => e.key === k) && s.zone;
    }, eastKey);
    expect(await zoneWhenSeen.jsonValue()).toBe('z0-0');
    await east.page.waitForFunction((k) => window.servePage!.state().entities.some((e) => e.key === k), westKey);
    await screenshot(west.page, 'serve-page-across-border');
    // On over the border: the page moves to z1-0's room; same avatar, East still in view.
    await west.page.waitForFunction(() => window.servePage!.state().zone === 'z1-0');
    await west.page.waitForFunction(() => {
      const s = window.servePage!.state();
      const me = s.entities.find((e) => e.key === s.avatar);
      return me !== undefined && me.x > 20.5;
    });
    await west.page.keyboard.up('KeyD');
    const after = await state(west.page);
    expect(after.avatar).toBe(westKey);
    expect(after.entities.map((e) => e.key)).toContain(eastKey);
    expect(after.errors).toEqual([]);
    await expect.poll(() => west.page.locator('#log').textContent()).toContain('Crossing into zone z1-0');
    await screenshot(west.page, 'serve-page-after-handover');
    expect(west.problems).toEqual([]);
    expect(east.problems).toEqual([]);
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
