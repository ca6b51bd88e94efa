/**
 * The playground as users of the TypeScript Playground and Compiler
 * Explorer use it (issue 12): work is never lost (share, examples, drafts),
 * the editor's menus and hints, page-wide keys, the view settings, the
 * canvas that rests when nothing changes. Real headless Chromium; skips
 * where Debian's Chromium is missing.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpb } from '../../vm/spb.js';
import { CHROMIUM_PATH, chromiumAvailable, startPlayground, toggleBreakpoint, type PlaygroundHarness } from './browser.js';
import type {} from '../../playground/src/hookTypes.js';

const SCREENS = new URL('../../.tmp/screens/', import.meta.url).pathname;
const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

let harness: PlaygroundHarness;

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => window.cantrip?.ready === true, null, { timeout: 30_000 });
}

/** A first visit (empty storage) whose later reloads keep what the page saved. */
async function openFresh(hash = ''): Promise<{ page: Page; errors: string[] }> {
  const page = await harness.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(harness.url);
  // The page saves its session as it unloads: clear what it saves then too, so the last test's text is gone.
  await page.evaluate(() => {
    localStorage.clear();
    window.addEventListener('pagehide', () => localStorage.clear());
  });
  await page.goto(harness.url + hash);
  await page.reload();
  await ready(page);
  return { page, errors };
}

async function setSource(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => window.cantrip!.setSource(t), text);
  await page.click('#editor .view-lines');
  await page.keyboard.press('Control+End');
}

async function consoleText(page: Page): Promise<string> {
  return (await page.evaluate(() => window.cantrip!.console())).map((e) => e.text).join('\n');
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}${name}.png` });
}

async function pick(page: Page, id: number): Promise<void> {
  await page.locator('#world').click({ position: (await page.evaluate((i) => window.cantrip!.screenPosition(i), id))! });
}

describe.skipIf(!available)('playground in Chromium: issue 12', () => {
  beforeAll(async () => {
    harness = await startPlayground();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('keeps edits made after Share: the address follows the editor, and a reload reopens the newest text', async () => {
    const { page } = await openFresh();
    await setSource(page, 'spell shared(caster, target) {\n  print "v1";\n}\n');
    const shared = await page.evaluate(() => window.cantrip!.share());
    // The console shows the whole link, not a shortened one.
    await page.waitForFunction((u) => window.cantrip!.console().some((e) => e.text.includes(u)), shared);
    await page.keyboard.type('// newer');
    await page.waitForFunction((u) => location.href !== u, shared);
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.cantrip!.source())).toContain('// newer');
    // Reloading right after typing (before the address caught up) also keeps the newest text.
    // Typed until the keys reach the editor (on a loaded machine the click can land before it is
    // laid out); the reload still comes right after, before the address's debounce.
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.click('#editor .view-lines');
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// newest');
      const landed = await page
        .waitForFunction(() => window.cantrip!.source().includes('// newest'), undefined, { timeout: 3_000 })
        .then(() => true, () => false);
      if (landed) break;
    }
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.cantrip!.source())).toContain('// newest');
    await page.close();
  });

  it('says a broken share link could not be read and keeps it in the address; links leave the default breeds out', async () => {
    const { page } = await openFresh();
    const full = await page.evaluate(() => window.cantrip!.linkFor('spell zap(caster, target) {\n  damage(target, 1);\n}\n'));
    await page.evaluate(() => window.cantrip!.setSource('print 1;\n'));
    const short = await page.evaluate(() => window.cantrip!.share());
    // The unchanged breeds file is not in the link: it is short.
    expect(short.length).toBeLessThan(200);
    const cut = full.slice(0, full.indexOf('#code/') + 20);
    await page.goto(cut);
    await ready(page);
    await page.waitForTimeout(500);
    expect(await consoleText(page)).toContain('could not be read');
    expect(page.url()).toBe(cut);
    await page.goto(harness.url.replace(/\/?$/, '/') + '#code/%%%garbage');
    await ready(page);
    expect(await consoleText(page)).toContain('could not be read');
    await page.waitForTimeout(500);
    expect(page.url()).toContain('#code/%%%garbage');
    await page.close();
  });

  it("opening someone else's link keeps your own spell as a draft", async () => {
    const { page } = await openFresh();
    await setSource(page, 'print "my own work";\n');
    await page.waitForFunction(() => (localStorage.getItem('cantrip.playground.v1') ?? '').includes('my own work'));
    const theirs = await page.evaluate(() => window.cantrip!.linkFor('print "theirs";\n'));
    // Pasted into the address bar of the open page: only the hash changes, and the page opens it.
    await page.goto(theirs);
    await page.waitForFunction(() => window.cantrip!.source() === 'print "theirs";\n');
    expect(await consoleText(page)).toContain('Your previous spell is kept');
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.cantrip!.source())).toBe('print "theirs";\n');
    await page.selectOption('#examples', { label: '↩ Your draft' });
    await page.waitForFunction(() => window.cantrip!.source() === 'print "my own work";\n');
    // A link opened in a new tab, while this browser holds other work: the same.
    const third = await page.evaluate(() => window.cantrip!.linkFor('print "third";\n'));
    await page.waitForFunction(() => (localStorage.getItem('cantrip.playground.v1') ?? '').includes('my own work'));
    const tab = await harness.context.newPage();
    await tab.goto(third);
    await ready(tab);
    expect(await tab.evaluate(() => window.cantrip!.source())).toBe('print "third";\n');
    expect(await consoleText(tab)).toContain('Your previous spell is kept');
    await tab.close();
    await page.close();
  });

  it('picking an example never loses your spell: Ctrl+Z brings it back, and so does the draft', async () => {
    const { page } = await openFresh();
    const mine = 'spell mine(caster, target) {\n  print "my own work";\n}\n';
    await setSource(page, mine);
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('mine'));
    await page.selectOption('#examples', 'hello');
    await page.waitForFunction(() => window.cantrip!.source().includes('fun greet'));
    // The menu shows which example is open.
    expect(await page.locator('#examples').inputValue()).toBe('hello');
    expect(await consoleText(page)).toContain('Your spell is kept');
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+z');
    await page.waitForFunction((m) => window.cantrip!.source() === m, mine);
    // Again, and this time through the draft entry.
    await page.selectOption('#examples', 'fireball');
    await page.waitForFunction(() => window.cantrip!.source().includes('spell fireball'));
    expect(await page.locator('#examples').inputValue()).toBe('fireball');
    await page.selectOption('#examples', { label: '↩ Your draft' });
    await page.waitForFunction((m) => window.cantrip!.source() === m, mine);
    // An edited example says so in the menu.
    await page.selectOption('#examples', 'hello');
    await page.waitForFunction(() => window.cantrip!.source().includes('fun greet'));
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// mine now');
    await expect.poll(() => page.locator('#examples option:checked').textContent()).toBe('hello (edited)');
    await page.close();
  });

  it("draws the editor's right-click menu on a background", async () => {
    const { page } = await openFresh();
    await page.click('#editor .view-lines', { button: 'right' });
    const menu = page.locator('.monaco-menu-container');
    await menu.waitFor();
    // Monaco paints the menu's background on its scrollable body, from the theme's colour variables.
    const background = await menu.locator('.monaco-scrollable-element').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    expect(await page.locator('.monaco-menu .action-label', { hasText: 'Copy' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'context-menu');
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('reports a missing comma in a host call, not a misleading argument count', async () => {
    const { page } = await openFresh();
    await setSource(page, 'spell s(caster, target) {\n  damage(target 5);\n}\n');
    await page.waitForFunction(() => window.cantrip!.markers().some((m) => m.severity === 'error'));
    const messages = (await page.evaluate(() => window.cantrip!.markers())).map((m) => m.message);
    expect(messages).toEqual(["Expect ')' after arguments."]);
    await page.close();
  });

  it('takes F10 / F11 / Shift+F11 / F5 anywhere on the page while a cast is paused', async () => {
    const { page } = await openFresh();
    await setSource(page, 'fun inner(n) {\n  var m = n + 1;\n  return m;\n}\nspell walk(caster, target) {\n  var a = 1;\n  var b = inner(a);\n  print "done " + str(b);\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('walk'));
    await toggleBreakpoint(page, 6);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    // A click on a debugger button takes the focus away from the editor; the keys must still work.
    await page.click('#dbg-over');
    await page.waitForFunction(() => window.cantrip!.debugState().line === 7);
    expect(await page.evaluate(() => document.activeElement?.closest('#editor') === null)).toBe(true);
    await page.keyboard.press('F11');
    await page.waitForFunction(() => window.cantrip!.debugState().line === 2);
    await page.keyboard.press('F10');
    await page.waitForFunction(() => window.cantrip!.debugState().line === 3);
    await page.keyboard.press('Shift+F11');
    await page.waitForFunction(() => window.cantrip!.debugState().frames[0]?.name === 'walk');
    await page.keyboard.press('F5');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    expect(await consoleText(page)).toContain('done 2');
    await page.close();
  });

  it('keeps Cast off, with a tooltip saying what to pick, until a spell that reads its target has one', async () => {
    const { page } = await openFresh();
    await page.selectOption('#examples', 'fireball');
    await page.waitForFunction(() => window.cantrip!.source().includes('spell fireball'));
    const cast = page.locator('#cast');
    expect(await cast.isDisabled()).toBe(true);
    expect(await cast.getAttribute('title')).toMatch(/Pick a target/);
    // Ctrl+Enter says so rather than casting on nil.
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => /Pick a target first/.test(e.text)));
    expect(await consoleText(page)).not.toMatch(/Only instances have properties/);
    const troll = (await page.evaluate(() => window.cantrip!.entities())).find((e) => e.breed === 'Troll')!;
    const wizard = (await page.evaluate(() => window.cantrip!.entities())).find((e) => e.breed === 'Wizard')!;
    await pick(page, wizard.id);
    await pick(page, troll.id);
    await expect.poll(() => cast.isDisabled()).toBe(false);
    // A spell that never reads its target casts without one.
    await setSource(page, 'spell shout(caster, target) {\n  say(caster, "hi");\n}\n');
    await page.locator('#world').click({ position: { x: 3, y: 3 } });
    await expect.poll(() => cast.isDisabled()).toBe(false);
    await page.close();
  });

  it("points Cast's tooltip to Play when the only spell is a breed's tick spell (issue 33 §4)", async () => {
    const { page } = await openFresh();
    // The default breeds run `wander` every tick for trolls.
    await setSource(page, 'spell wander(self, dt) {\n  print "step";\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('wander'));
    const cast = page.locator('#cast');
    await expect.poll(() => cast.getAttribute('title')).toMatch(/^wander is a breed's tick spell: .*press Play to run the world$/);
    expect(await cast.isDisabled()).toBe(true);
    await page.close();
  });

  it('keeps the spell picked in the spell menu over a reload (issue 33 §7)', async () => {
    const { page } = await openFresh();
    await setSource(page, 'spell first(caster, target) {\n  print 1;\n}\nspell second(caster, target) {\n  print 2;\n}\n');
    await expect.poll(() => page.locator('#spell-select option').allTextContents()).toEqual(['first', 'second']);
    await page.selectOption('#spell-select', 'second');
    await page.reload();
    await ready(page);
    expect(await page.locator('#spell-select').inputValue()).toBe('second');
    // It stays picked while the menu is rebuilt by typing (the spell list changes, then comes back).
    await page.evaluate(() => window.cantrip!.setSource('spell first(caster, target) {\n  print 1;\n}\nspell third(caster, target) {\n  print 3;\n}\nspell second(caster, target) {\n  print 2;\n}\n'));
    await expect.poll(() => page.locator('#spell-select option').allTextContents()).toEqual(['first', 'third', 'second']);
    expect(await page.locator('#spell-select').inputValue()).toBe('second');
    await page.close();
  });

  it('collapses the repeated frames of a stack overflow in the console', async () => {
    const { page } = await openFresh();
    await setSource(page, 'fun f() { f(); }\nf();\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('CALL'));
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.kind === 'error' && e.text.startsWith('Stack overflow.')));
    const error = (await page.evaluate(() => window.cantrip!.console())).find((e) => e.kind === 'error')!;
    const lines = error.text.split('\n');
    expect(lines.length).toBeLessThan(8);
    expect(lines).toContainEqual(expect.stringMatching(/^\[line 1\] in f\(\) — \d+ more times$/));
    await page.close();
  });

  it('starts with the entities apart, hints the canvas controls, and lays speech bubbles out', async () => {
    const { page } = await openFresh();
    await page.selectOption('#examples', 'traps');
    await page.waitForFunction(() => window.cantrip!.entities().some((e) => e.breed === 'Spike Trap'));
    for (const example of ['traps', 'fireball']) {
      await page.selectOption('#examples', example);
      await page.waitForTimeout(100);
      const entities = await page.evaluate(() => window.cantrip!.entities());
      const points = await Promise.all(entities.map((e) => page.evaluate((i) => window.cantrip!.screenPosition(i), e.id)));
      const visible = points.filter((p): p is { x: number; y: number } => p !== null);
      let closest = Infinity;
      for (let i = 0; i < visible.length; i++) for (let j = i + 1; j < visible.length; j++) closest = Math.min(closest, Math.hypot(visible[i]!.x - visible[j]!.x, visible[i]!.y - visible[j]!.y));
      // Two glyphs of at least 8 px radius, and room between them.
      expect({ example, apart: closest >= 26 }).toEqual({ example, apart: true });
    }
    expect(await page.locator('.canvas-hint').textContent()).toMatch(/wheel: zoom/);
    await page.selectOption('#examples', 'traps');
    await page.click('#world-play');
    await page.waitForFunction(() => window.cantrip!.console().filter((e) => /says "/.test(e.text)).length >= 2, null, { timeout: 20_000 });
    await page.click('#world-pause');
    await screenshot(page, 'traps-bubbles');
    await page.close();
  });

  it('does not draw while nothing changes, and draws again when something does', async () => {
    const { page } = await openFresh();
    await page.waitForTimeout(1500); // the starting effects fade
    const before = await page.evaluate(() => window.cantrip!.framesDrawn());
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => window.cantrip!.framesDrawn())).toBe(before);
    await page.click('#world-step');
    await page.waitForFunction((n) => window.cantrip!.framesDrawn() > n, before);
    await page.click('#world-play');
    await page.waitForTimeout(500);
    const playing = await page.evaluate(() => window.cantrip!.framesDrawn());
    expect(playing - before).toBeGreaterThan(5);
    await page.click('#world-pause');
    await page.close();
  });

  it('puts the toast clear of the World buttons; stale bytecode is not linked; the gutter shows where a breakpoint would go', async () => {
    const { page } = await openFresh();
    await page.evaluate(() => void window.cantrip!.share());
    const toast = page.locator('.toast');
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    for (const id of ['#world-play', '#world-pause', '#world-step', '#world-reset', '#share']) {
      const b = (await page.locator(id).boundingBox())!;
      const overlaps = box.x < b.x + b.width && b.x < box.x + box.width && box.y < b.y + b.height && b.y < box.y + box.height;
      expect({ id, overlaps }).toEqual({ id, overlaps: false });
    }
    // Stale listing: hovering a source line highlights nothing in the old rows.
    await setSource(page, 'var a = 1;\nprint a;\nprint a +;\n');
    await page.waitForSelector('#bytecode.stale');
    const line = page.locator('#editor .view-line').nth(1);
    await line.hover();
    await page.waitForTimeout(150);
    expect(await page.locator('#bytecode .row.linked').count()).toBe(0);
    // Hovering the gutter shows the faint dot.
    const number = page.locator('#editor .line-numbers', { hasText: /^2$/ });
    const n = (await number.boundingBox())!;
    await page.mouse.move(n.x - 12, n.y + n.height / 2);
    await page.waitForSelector('#editor .cantrip-breakpoint-hint');
    await page.close();
  });

  it('shows parameter hints from the host-API table while typing arguments', async () => {
    const { page } = await openFresh();
    await setSource(page, 'spell s(caster, target) {\n  \n}\n');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.type('damage(target, ');
    const hints = page.locator('.parameter-hints-widget');
    await hints.waitFor({ state: 'visible' });
    expect(await hints.textContent()).toMatch(/damage\(target: entity, amount: number\)/);
    expect(await page.locator('.parameter-hints-widget .parameter.active').textContent()).toBe('amount: number');
    await screenshot(page, 'signature-help');
    await page.close();
  });

  it('opens the command palette with F1 and go-to-line with Ctrl+G, wherever the focus is', async () => {
    const { page } = await openFresh();
    await page.click('#world-step');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await page.keyboard.type('toggle light');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Toggle light / dark theme' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.click('#world-step');
    await page.keyboard.press('Control+g');
    await input.waitFor({ state: 'visible' });
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.cantrip!.cursor().line)).toBe(5);
    await page.close();
  });

  it('changes the code font with Ctrl+= / Ctrl+- and the theme with its button, and remembers both', async () => {
    const { page } = await openFresh();
    const size = await page.evaluate(() => window.cantrip!.editorFontSize());
    await page.click('#world-step');
    await page.keyboard.press('Control+=');
    await page.keyboard.press('Control+=');
    await expect.poll(() => page.evaluate(() => window.cantrip!.editorFontSize())).toBe(size + 2);
    const rowHeight = await page.locator('#bytecode .row').first().evaluate((el) => el.getBoundingClientRect().height);
    expect(rowHeight).toBeGreaterThan(17);
    await page.keyboard.press('Control+-');
    await expect.poll(() => page.evaluate(() => window.cantrip!.editorFontSize())).toBe(size + 1);
    await page.click('#theme-toggle');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    const editorBackground = await page.locator('#editor .monaco-editor-background').evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = editorBackground.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeGreaterThan(600);
    await page.waitForTimeout(200);
    await screenshot(page, 'light-theme');
    await page.reload();
    await ready(page);
    expect(await page.evaluate(() => window.cantrip!.view())).toEqual({ theme: 'light', fontSize: size + 1 });
    await page.close();
  });

  it('saves with Ctrl+S (no browser dialog) and downloads the compiled .spb', async () => {
    const { page } = await openFresh();
    await setSource(page, 'print "saved " + str(1 + 2);\n');
    await page.keyboard.press('Control+s');
    await page.locator('.toast', { hasText: 'Saved' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('cantrip.playground.v1'))).toContain('saved ');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-spb')]);
    expect(download.suggestedFilename()).toMatch(/\.spb$/);
    const path = await download.path();
    const module = readSpb(new Uint8Array(readFileSync(path)));
    expect(module.functions.length).toBeGreaterThan(0);
    await page.close();
  });

  it('resizes the panes by dragging the lines between them', async () => {
    const { page } = await openFresh();
    const width = () => page.locator('.editor-pane').evaluate((el) => el.getBoundingClientRect().width);
    const height = () => page.locator('.console-pane').evaluate((el) => el.getBoundingClientRect().height);
    const before = await width();
    const splitter = (await page.locator('[data-splitter="col0"]').boundingBox())!;
    await page.mouse.move(splitter.x + splitter.width / 2, splitter.y + 200);
    await page.mouse.down();
    await page.mouse.move(splitter.x + 150, splitter.y + 200, { steps: 5 });
    await page.mouse.up();
    expect(await width()).toBeGreaterThan(before + 100);
    const consoleBefore = await height();
    const row = (await page.locator('[data-splitter="row0"]').boundingBox())!;
    await page.mouse.move(row.x + 300, row.y + row.height / 2);
    await page.mouse.down();
    await page.mouse.move(row.x + 300, row.y - 100, { steps: 5 });
    await page.mouse.up();
    expect(await height()).toBeGreaterThan(consoleBefore + 60);
    // The editor follows (Monaco lays itself out again).
    const editorWidth = await page.locator('#editor .monaco-editor').evaluate((el) => el.getBoundingClientRect().width);
    expect(editorWidth).toBeGreaterThan(before + 90);
    await page.close();
  });

  it("says what an instruction does when hovering it in the bytecode panel (the opcode table's docs)", async () => {
    const { page } = await openFresh();
    await page.locator('#bytecode .row', { hasText: 'GET_PROPERTY' }).first().hover();
    const tip = page.locator('.opcode-tip');
    await tip.waitFor({ state: 'visible' });
    expect(await tip.textContent()).toContain('GET_PROPERTY (name) — replace object with its field or bound method');
    await screenshot(page, 'opcode-tip');
    await page.close();
  });

  it('shows what a hovered entity is and holds (breed, health, position, attributes, fields spells set), and hides it when the mouse leaves', async () => {
    const { page } = await openFresh();
    await page.setViewportSize({ width: 1440, height: 900 });
    await setSource(page, 'spell mark(caster, target) {\n  target.mood = "grim";\n  target.armor = 9;\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('mark'));
    const entities = await page.evaluate(() => window.cantrip!.entities());
    const wizard = entities.find((e) => e.breed === 'Wizard')!;
    const troll = entities.find((e) => e.breed === 'Troll')!;
    await pick(page, wizard.id);
    await pick(page, troll.id);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('mark finished (ran on the interpreter).')));
    const at = (await page.evaluate((i) => window.cantrip!.screenPosition(i), troll.id))!;
    const box = (await page.locator('#world').boundingBox())!;
    await page.mouse.move(box.x + at.x, box.y + at.y);
    await expect.poll(() => page.evaluate(() => window.cantrip!.inspector())).toContain(`Troll #${troll.id}`);
    const text = (await page.evaluate(() => window.cantrip!.inspector()))!;
    expect(text).toMatch(/health\s*\d+ \/ \d+/);
    expect(text).toMatch(/position\s*\(/);
    expect(text).toContain('breed attributes');
    expect(text).toMatch(/set by spells.*mood\s*grim.*armor\s*9/s);
    await screenshot(page, 'entity-inspector');
    await page.mouse.move(box.x + 2, box.y + box.height + 40);
    await expect.poll(() => page.evaluate(() => window.cantrip!.inspector())).toBeNull();
    await page.close();
  });
});
