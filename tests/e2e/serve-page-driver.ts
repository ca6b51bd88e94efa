/**
 * Driving the zone server's browser page (playground/serve-page) in
 * Chromium, shared by its end-to-end tests (against the fake zone server and
 * against `cantrip serve`): join from the address, read the page's state
 * (window.servePage), click an entity where it is drawn, take screenshots,
 * and the walk over a zone border both are tested with.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ServePageHook } from '../../playground/serve-page/src/pageHook.js';

const SCREENS = new URL('../../.tmp/screens/', import.meta.url).pathname;

export interface OpenServePage {
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  problems: string[];
}

/** Open the page at `url` with the join form filled from `query`, join, and wait until the avatar is in view. */
export async function joinAt(context: BrowserContext, url: string, query: string): Promise<OpenServePage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${url}?${query}&join=1`);
  await page.waitForFunction(() => {
    const s = window.servePage?.state();
    return s !== undefined && s.avatar !== null && s.entities.some((e) => e.key === s.avatar);
  });
  return { page, problems };
}

export function pageState(page: Page): Promise<ReturnType<ServePageHook['state']>> {
  return page.evaluate(() => window.servePage!.state());
}

/** Click where the page draws the entity `key`. */
export async function clickEntity(page: Page, key: string): Promise<void> {
  const at = await page.evaluate((k) => window.servePage!.screenPosition(k), key);
  if (at === null) throw new Error(`${key} is not drawn`);
  const box = (await page.locator('#world').boundingBox())!;
  await page.mouse.click(box.x + at.x, box.y + at.y);
}

/** .tmp/screens/NAME.png */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}${name}.png` });
}

/**
 * The border scenario both servers are tested with: West (in zone z0-0) and
 * East (in z1-0) start out of each other's range; West holds D and walks
 * east. It must see East while still in its own zone, and be seen; then
 * cross into z1-0's room with the same avatar, and no frame it draws on the
 * way may lack either avatar. Screenshots: PREFIX-across-border,
 * PREFIX-seen-from-east, PREFIX-after-handover.
 */
export async function crossTheBorder(west: OpenServePage, east: OpenServePage, prefix: string): Promise<void> {
  const westKey = (await pageState(west.page)).avatar!;
  const eastKey = (await pageState(east.page)).avatar!;
  expect((await pageState(west.page)).zone).toBe('z0-0');
  expect((await pageState(east.page)).zone).toBe('z1-0');
  expect((await pageState(west.page)).entities.map((e) => e.key)).not.toContain(eastKey);
  expect((await pageState(east.page)).entities.map((e) => e.key)).not.toContain(westKey);
  await west.page.keyboard.down('KeyD');
  // The zone West is in, read at the moment it first sees East.
  const zoneWhenSeen = await west.page.waitForFunction((k) => {
    const s = window.servePage!.state();
    return s.entities.some((e) => e.key === k) && s.zone;
  }, eastKey);
  expect(await zoneWhenSeen.jsonValue()).toBe('z0-0');
  await east.page.waitForFunction((k) => window.servePage!.state().entities.some((e) => e.key === k), westKey);
  await screenshot(west.page, `${prefix}-across-border`);
  await screenshot(east.page, `${prefix}-seen-from-east`);
  // From now on, every frame West draws has both avatars: the crossing drops nothing from view.
  await west.page.evaluate((k) => {
    const w = window as unknown as { lostSight: string[] };
    w.lostSight = [];
    const watch = () => {
      const s = window.servePage!.state();
      for (const key of [s.avatar!, k]) if (!s.entities.some((e) => e.key === key)) w.lostSight.push(`${key} at tick ${s.tick} in ${s.zone}`);
      requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  }, eastKey);
  await west.page.waitForFunction(() => window.servePage!.state().zone === 'z1-0', null, { timeout: 20_000 });
  // Walk on a little in the new room (its views move the avatar), still watched.
  const crossedAt = (await pageState(west.page)).entities.find((e) => e.key === westKey)!.x;
  await west.page.waitForFunction(([k, x]) => window.servePage!.state().entities.find((e) => e.key === k)!.x > (x as number) + 0.5, [westKey, crossedAt] as const);
  await west.page.keyboard.up('KeyD');
  expect(await west.page.evaluate(() => (window as unknown as { lostSight: string[] }).lostSight)).toEqual([]);
  const after = await pageState(west.page);
  expect(after.avatar).toBe(westKey);
  expect(after.entities.map((e) => e.key)).toContain(eastKey);
  expect(after.errors).toEqual([]);
  await expect.poll(() => west.page.locator('#log').textContent()).toContain('Crossing into zone z1-0');
  await screenshot(west.page, `${prefix}-after-handover`);
  expect(west.problems).toEqual([]);
  expect(east.problems).toEqual([]);
}
