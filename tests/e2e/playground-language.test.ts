/**
 * The playground's language features, driven with the keys a designer
 * presses, in a real headless Chromium: F12 (go to definition), F2 (rename),
 * Ctrl+. (the "did you mean" quick fix), Shift+F12 (references),
 * Ctrl+Shift+O (the outline), Format Document and completion after
 * `target.`. All of them answer from the library's language service.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable, startPlayground, type PlaygroundHarness } from './browser.js';
import type {} from '../../playground/src/hookTypes.js';

const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

let harness: PlaygroundHarness;

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await harness.context.newPage();
  await page.addInitScript(() => localStorage.clear());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(harness.url);
  await page.waitForFunction(() => window.cantrip?.ready === true, null, { timeout: 30_000 });
  return { page, errors };
}

/** Replace the text and put the cursor at a 1-based line and column (Ctrl+G, as a user would). */
async function sourceWithCursor(page: Page, text: string, line: number, column: number): Promise<void> {
  await page.evaluate((t) => window.cantrip!.setSource(t), text);
  await page.click('#editor .view-lines');
  await moveTo(page, line, column);
}

async function moveTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(([l, c]) => {
    const at = window.cantrip!.cursor();
    return at.line === l && at.column === c;
  }, [line, column] as const);
}

const source = (page: Page) => page.evaluate(() => window.cantrip!.source());

describe.skipIf(!available)('playground language features in Chromium', () => {
  beforeAll(async () => {
    harness = await startPlayground();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('F12 goes to the definition the resolver bound the name to', async () => {
    const { page, errors } = await openPage();
    await sourceWithCursor(page, 'fun helper(a) {\n  return a;\n}\nspell s(caster, target) {\n  helper(1);\n}\n', 5, 5);
    await page.keyboard.press('F12');
    await page.waitForFunction(() => window.cantrip!.cursor().line === 1);
    expect(await page.evaluate(() => window.cantrip!.cursor())).toMatchObject({ line: 1, column: 5 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the context menu labels Go to Definition F12, and Ctrl+F12 goes there too (issue 33 §5)', async () => {
    const { page, errors } = await openPage();
    await sourceWithCursor(page, 'fun helper(a) {\n  return a;\n}\nspell s(caster, target) {\n  helper(1);\n}\n', 5, 5);
    await page.click('#editor .view-lines', { button: 'right', position: { x: 60, y: 5 } });
    const item = page.locator('.monaco-menu .action-item', { hasText: 'Go to Definition' });
    await item.waitFor();
    expect(((await item.locator('.keybinding').textContent()) ?? '').trim()).toBe('F12');
    await page.keyboard.press('Escape');
    await moveTo(page, 5, 5);
    await page.keyboard.press('Control+F12');
    await page.waitForFunction(() => window.cantrip!.cursor().line === 1);
    expect(await page.evaluate(() => window.cantrip!.cursor())).toMatchObject({ line: 1, column: 5 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('F2 renames a parameter everywhere it is used, and nothing else', async () => {
    const { page } = await openPage();
    const text = 'spell zap(caster, target) {\n  damage(target, caster.wisdom);\n  print caster;\n}\nvar caster = 1;\n';
    await sourceWithCursor(page, text, 1, 12);
    await page.keyboard.press('F2');
    await page.waitForFunction(() => document.activeElement?.classList.contains('rename-input') && (document.activeElement as HTMLInputElement).value === 'caster');
    // The box opens with the old name selected: typing replaces it.
    await page.keyboard.type('wizard');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.cantrip!.source().includes('print wizard'));
    expect(await source(page)).toBe(text.replace('zap(caster', 'zap(wizard').replace('caster.wisdom', 'wizard.wisdom').replace('print caster', 'print wizard'));
    await page.close();
  });

  /** Wait for the warning, press Ctrl+., pick the offered fix with Enter, and wait for the fixed text. */
  async function quickFix(page: Page, warning: string, title: string, fixed: string): Promise<void> {
    await page.waitForFunction((w) => window.cantrip!.markers().some((m) => m.message.includes(w)), warning);
    await page.keyboard.press('Control+.');
    await page.waitForSelector(`text=${title}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((f) => window.cantrip!.source().includes(f), fixed);
    await page.waitForFunction((w) => !window.cantrip!.markers().some((m) => m.message.includes(w)), warning);
  }

  it('Ctrl+. offers "did you mean" for a misspelt property and applies it', async () => {
    const { page } = await openPage();
    await sourceWithCursor(page, 'spell zap(caster, target) {\n  damage(target, caster.wisdm);\n}\n', 2, 26);
    await quickFix(page, "did you mean 'wisdom'", "Change to 'wisdom'", 'caster.wisdom)');
    await page.close();
  });

  it('Ctrl+. fixes a misspelt host function too', async () => {
    const { page } = await openPage();
    await sourceWithCursor(page, 'spell zap(caster, target) {\n  damge(target, 3);\n}\n', 2, 4);
    await quickFix(page, "'damge'", "Change to 'damage'", '  damage(target, 3);');
    await page.close();
  });

  it('Shift+F12 lists the references, Ctrl+Shift+O the outline', async () => {
    const { page } = await openPage();
    await sourceWithCursor(page, 'var power = 3;\nspell zap(caster, target) {\n  damage(target, power);\n  print power;\n}\nclass Rune { boost() {} }\n', 1, 6);
    await page.keyboard.press('Shift+F12');
    await page.waitForSelector('.peekview-widget');
    await page.waitForFunction(() => /References \(3\)/.test(document.querySelector('.peekview-widget')?.textContent ?? ''));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+O');
    await page.waitForSelector('.quick-input-list .monaco-list-row');
    const outline = await page.locator('.quick-input-list').textContent();
    expect(outline).toContain('zap');
    expect(outline).toContain('Rune');
    expect(outline).toContain('boost');
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('Format Document (Ctrl+Shift+I on Linux, Shift+Alt+F on Windows) formats the document', async () => {
    const { page } = await openPage();
    await sourceWithCursor(page, 'spell zap(caster,target){damage(target,1);}', 1, 1);
    await page.keyboard.press('Control+Shift+I');
    await page.waitForFunction(() => window.cantrip!.source() === 'spell zap(caster, target) {\n  damage(target, 1);\n}\n');
    await page.close();
  });

  it('completes entity properties after target. and no list, map or string methods', async () => {
    const { page } = await openPage();
    await sourceWithCursor(page, 'spell zap(caster, target) {\n  print target\n}\n', 2, 15);
    await page.keyboard.type('.');
    await page.waitForSelector('.suggest-widget.visible .monaco-list-row');
    const labels = await page.locator('.suggest-widget .monaco-list-row .label-name').allTextContents();
    expect(labels.length).toBeGreaterThan(3);
    expect(labels.some((l) => ['health', 'breed', 'alive', 'id', 'is', 'x'].includes(l))).toBe(true);
    expect(labels).not.toContain('append');
    expect(labels).not.toContain('upper');
    expect(labels).not.toContain('keys');
    await page.close();
  });
});
