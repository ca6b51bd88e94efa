/**
 * The playground in a real headless Chromium: the designer's path from
 * typing to a troll losing health. Skips (with a notice) where Debian's
 * Chromium is not installed.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable, startPlayground, toggleBreakpoint, type PlaygroundHarness } from './browser.js';
import type {} from '../../playground/src/hookTypes.js';

const SCREENS = new URL('../../.tmp/screens/', import.meta.url).pathname;
const available = chromiumAvailable();
if (!available) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);

interface DebugMarker {
  severity: string;
  message: string;
  line: number;
  column: number;
  owner: string;
}

let harness: PlaygroundHarness;

async function openPage(hash = ''): Promise<{ page: Page; errors: string[] }> {
  const page = await harness.context.newPage();
  // Every test starts from a first visit: no autosaved session from the test before.
  await page.addInitScript(() => localStorage.clear());
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(harness.url + hash);
  await page.waitForFunction(() => window.cantrip?.ready === true, null, { timeout: 30_000 });
  return { page, errors };
}

/**
 * Replace the whole text (as a paste would: Monaco's typing path re-indents
 * multi-line input), then put the cursor at the end for keyboard typing.
 */
async function setSource(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => window.cantrip!.setSource(t), text);
  await page.click('#editor .view-lines');
  await page.keyboard.press('Control+End');
}

async function markers(page: Page): Promise<DebugMarker[]> {
  return page.evaluate(() => window.cantrip!.markers());
}

async function consoleText(page: Page): Promise<string> {
  return (await page.evaluate(() => window.cantrip!.console())).map((e) => e.text).join('\n');
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: `${SCREENS}${name}.png` });
}

describe.skipIf(!available)('playground in Chromium', () => {
  beforeAll(async () => {
    harness = await startPlayground();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('loads with no console errors', async () => {
    const { page, errors } = await openPage();
    await page.waitForSelector('#editor .view-lines');
    await page.waitForSelector('#bytecode .row');
    await page.waitForTimeout(500);
    await screenshot(page, 'loaded');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a syntax error as a marker on its line, clears it when fixed, and updates the bytecode', async () => {
    const { page } = await openPage();
    await setSource(page, 'var a = 1;\nprint a;\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('PRINT'));
    expect(await markers(page)).toEqual([]);

    await page.keyboard.type('print a +;');
    await page.waitForFunction(() => window.cantrip!.markers().some((m) => m.severity === 'error'));
    const errs = (await markers(page)).filter((m) => m.severity === 'error');
    expect(errs[0]!.line).toBe(3);
    await page.waitForSelector('#editor .squiggly-error');
    await screenshot(page, 'syntax-error');

    // Fix it: replace the broken line.
    await page.keyboard.press('Shift+Home');
    await page.keyboard.insertText('print a + 12345;');
    await page.waitForFunction(() => !window.cantrip!.markers().some((m) => m.severity === 'error'));
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('12345'));
    expect(await page.locator('#editor .squiggly-error').count()).toBe(0);
    expect(await page.locator('#bytecode').textContent()).toContain('12345');
    await page.close();
  });

  it('reports several errors at once thanks to error recovery', async () => {
    const { page } = await openPage();
    await setSource(page, 'print 1 +;\nvar = 3;\nprint (2;\n');
    await page.waitForFunction(() => window.cantrip!.markers().filter((m) => m.severity === 'error').length >= 2);
    const lines = (await markers(page)).filter((m) => m.severity === 'error').map((m) => m.line);
    expect(new Set(lines).size).toBeGreaterThanOrEqual(2);
    // Each one is spelled out under the editor; clicking one goes to it.
    const problems = page.locator('#problems .problem.error');
    await expect.poll(() => problems.count()).toBe(lines.length);
    expect(await problems.nth(1).textContent()).toContain(`${lines[1]}:`);
    await problems.nth(1).click();
    expect(await page.evaluate(() => window.cantrip!.cursor())).toMatchObject({ tab: 'spell', line: lines[1] });
    expect(await page.locator('#status').textContent()).toBe(`${lines.length} errors`);
    await screenshot(page, 'compile-errors');
    // Fixed: the strip goes away.
    await page.evaluate(() => window.cantrip!.setSource('print 1;\n'));
    await page.waitForSelector('#problems', { state: 'hidden' });
    await page.close();
  });

  it('ends an infinite loop with a budget error and stays responsive', async () => {
    const { page } = await openPage();
    await setSource(page, 'var n = 0;\nwhile (true) {\n  n = n + 1;\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('LOOP'));
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.kind === 'error' && /fuel/i.test(e.text)), null, { timeout: 20_000 });
    const error = (await page.evaluate(() => window.cantrip!.console())).find((e) => e.kind === 'error')!;
    expect(error.line).not.toBeNull();
    // Still responsive: typing recompiles.
    const before = await page.evaluate(() => window.cantrip!.compileCount());
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('print "alive";');
    await page.waitForFunction((n) => window.cantrip!.compileCount() > n, before);
    // The compile of the last keystroke is done (an earlier one may have satisfied the count under load).
    await page.waitForFunction(() => window.cantrip!.bytecode().includes("'alive'"));
    // Clicking the error jumps to its line, where a runtime marker shows.
    await page.click('#console .entry.error.clickable');
    expect((await markers(page)).some((m) => m.owner === 'runtime' && m.line === error.line)).toBe(true);
    await screenshot(page, 'budget-error');
    await page.close();
  });

  it('ends runaway casts on the world (infinite loop, runaway recursion) with budget errors', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell spin(caster, target) {\n  var n = 0;\n  while (true) n += 1;\n}\nfun dive(n) { return dive(n + 1); }\nspell plunge(caster, target) {\n  dive(0);\n}\n');
    await page.waitForFunction(() => document.querySelectorAll('#spell-select option').length === 2);
    await page.selectOption('#spell-select', 'spin');
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.kind === 'error' && /fuel/i.test(e.text)), null, { timeout: 20_000 });
    expect((await page.evaluate(() => window.cantrip!.console())).find((e) => /fuel/i.test(e.text))!.line).toBe(3);
    await page.selectOption('#spell-select', 'plunge');
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.kind === 'error' && e.text.startsWith('Stack overflow.')));
    // The world still runs.
    await page.click('#world-step');
    await page.waitForFunction(() => window.cantrip!.worldTime() > 0);
    await page.close();
  });

  it('puts a breeds.json error on the line of the field it names', async () => {
    const { page } = await openPage();
    await page.click('.tabs button[data-tab="breeds"]');
    const breeds = '{\n  "breeds": [\n    { "name": "Troll", "health": 25 },\n    {\n      "name": "Archer",\n      "parent": "Trol"\n    }\n  ]\n}\n';
    await page.evaluate((t) => window.cantrip!.setBreeds(t), breeds);
    await page.waitForFunction(() => window.cantrip!.breedsMarkers().length > 0);
    const [marker] = await page.evaluate(() => window.cantrip!.breedsMarkers());
    expect(marker!.line).toBe(6);
    expect(marker!.message).toContain('Trol');
    await page.waitForSelector('#editor .squiggly-error');
    await expect.poll(() => page.locator('#status').textContent()).toBe('compiled · breeds.json: 1 error');
    // From the spell tab, the problem row brings the breeds back at the right line.
    await page.click('.tabs button[data-tab="spell"]');
    await page.click('#problems .problem');
    expect(await page.evaluate(() => window.cantrip!.cursor())).toMatchObject({ tab: 'breeds', line: 6 });
    expect(await page.locator('.tabs button.active').textContent()).toBe('breeds.json');
    await screenshot(page, 'breeds-error');
    await page.evaluate(() => window.cantrip!.setBreeds('{ "breeds": [ { "name": "Troll" } ] }'));
    await page.waitForFunction(() => window.cantrip!.breedsMarkers().length === 0);
    await page.close();
  });

  it('survives hostile sources with a clean message and a live page', async () => {
    const { page, errors } = await openPage();
    const garbage = Array.from({ length: 3000 }, (_, i) => String.fromCharCode((i * 7919) % 0xd7ff)).join('');
    const hostile: [string, string, RegExp][] = [
      ['100,000 nested parentheses', 'print ' + '('.repeat(100_000) + '1' + ')'.repeat(100_000) + ';', /nesting/i],
      ['a NUL byte', 'print 1;\u0000print 2;', /character/i],
      ['binary garbage', garbage, /./],
      ['a 10 MB file', 'var x = 1;\n'.repeat(1_000_000), /playground compiles up to/],
    ];
    for (const [, source, message] of hostile) {
      const before = await page.evaluate(() => window.cantrip!.compileCount());
      await page.evaluate((t) => window.cantrip!.setSource(t), source);
      await page.waitForFunction((n) => window.cantrip!.compileCount() > n, before, { timeout: 20_000 });
      expect((await markers(page)).find((m) => m.severity === 'error')!.message).toMatch(message);
    }
    await page.evaluate((t) => window.cantrip!.setSource(t), 'print "' + 'a'.repeat(1_000_000 - 20) + '";');
    await page.waitForFunction(() => !window.cantrip!.markers().some((m) => m.severity === 'error'), null, { timeout: 20_000 });
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.startsWith('aaaa')));
    expect((await consoleText(page)).includes('Internal error')).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs print output to the console', async () => {
    const { page } = await openPage();
    await setSource(page, 'fun fib(n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }\nprint "fib " + str(fib(15));\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('fib'));
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text === 'fib 610'));
    expect(await consoleText(page)).toContain('fib 610');
    await page.close();
  });

  it('casts fireball from the wizard on a selected troll: its health drops on the canvas and in the console', async () => {
    const { page } = await openPage();
    await page.selectOption('#examples', 'fireball');
    await page.waitForFunction(() => window.cantrip!.source().includes('spell fireball'));
    const entities = await page.evaluate(() => window.cantrip!.entities());
    const wizard = entities.find((e) => e.breed === 'Wizard')!;
    const troll = entities.find((e) => e.breed === 'Troll')!;
    const canvas = page.locator('#world');
    for (const id of [wizard.id, troll.id]) {
      const p = (await page.evaluate((i) => window.cantrip!.screenPosition(i), id))!;
      await canvas.click({ position: p });
    }
    expect(await page.evaluate(() => window.cantrip!.selection())).toEqual({ caster: wizard.id, target: troll.id });
    await expect.poll(() => page.locator('#world-readout').textContent()).toContain(`target Troll#${troll.id} ♥${troll.health}/`);
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction((id) => window.cantrip!.entities().find((e) => e.id === id)!.health < window.cantrip!.entities().find((e) => e.id === id)!.maxHealth, troll.id);
    const after = (await page.evaluate(() => window.cantrip!.entities())).find((e) => e.id === troll.id)!;
    expect(after.health).toBeLessThan(troll.health);
    expect(await page.locator('#world-readout').textContent()).toContain(`target Troll#${troll.id} ♥${Math.round(after.health * 10) / 10}/`);
    expect(await consoleText(page)).toMatch(new RegExp(`Troll#${troll.id} takes [0-9.]+ damage \\(health ${after.health}\\)`));
    await page.waitForTimeout(150);
    await screenshot(page, 'fireball');
    await page.close();
  });

  it("names an entity in the console after it dies, and says when its death cancels a cast it was waiting in", async () => {
    const { page } = await openPage();
    await setSource(page, 'spell channel(caster, target) {\n  wait(5);\n  damage(target, 1);\n}\nspell smite(caster, target) {\n  damage(target, 999);\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('smite'));
    const entities = await page.evaluate(() => window.cantrip!.entities());
    const wizard = entities.find((e) => e.breed === 'Wizard')!;
    const troll = entities.find((e) => e.breed === 'Troll')!;
    const canvas = page.locator('#world');
    const pick = async (caster: number, target: number): Promise<void> => {
      await canvas.click({ position: { x: 3, y: 3 } }); // nothing there: clears the selection
      for (const id of [caster, target]) {
        const p = (await page.evaluate((i) => window.cantrip!.screenPosition(i), id))!;
        await canvas.click({ position: p });
      }
      expect(await page.evaluate(() => window.cantrip!.selection())).toEqual({ caster, target });
    };
    // One step first: the AOI knows who sees whom, so the troll's death is followed by leave lines.
    await page.click('#world-step');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('enters the range of')));
    await pick(troll.id, wizard.id);
    await page.selectOption('#spell-select', 'channel');
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('casts channel')));
    await pick(wizard.id, troll.id);
    await page.selectOption('#spell-select', 'smite');
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => / dies$/.test(e.text)));
    for (let i = 0; i < 3; i++) await page.click('#world-step');
    const text = await consoleText(page);
    expect(text).toContain(`Wizard#${wizard.id} casts smite on Troll#${troll.id}`);
    expect(text).toContain(`channel (cast by Troll#${troll.id}) is cancelled: Its caster died.`);
    expect(text).toContain(`Troll#${troll.id} dies`);
    expect(text).toMatch(new RegExp(`Troll#${troll.id} leaves the range of `));
    expect(text).not.toMatch(/(^|[^\w])#\d/m);
    await page.close();
  });

  it('says in the console that Stop cancelled the debugged cast', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell poke(caster, target) {\n  print "one";\n  print "two";\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('poke'));
    await toggleBreakpoint(page, 3);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    await page.click('#dbg-stop');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('poke (cast by Wizard#1) is cancelled: Stopped in the debugger.')));
    expect(await consoleText(page)).not.toContain('two');
    await page.close();
  });

  it('stops at a gutter breakpoint, steps to the next line, and keeps debugging across wait', async () => {
    const { page } = await openPage();
    await page.selectOption('#examples', 'fireball');
    await page.waitForFunction(() => window.cantrip!.source().includes('spell fireball'));
    const lines = (await page.evaluate(() => window.cantrip!.source())).split('\n');
    const heatLine = lines.findIndex((l) => l.includes('var heat')) + 1;
    const soundLine = lines.findIndex((l) => l.includes('sound(')) + 1;
    for (const line of [heatLine, soundLine]) await toggleBreakpoint(page, line);
    expect(await page.evaluate(() => window.cantrip!.breakpoints())).toEqual([heatLine, soundLine]);
    await page.waitForSelector('#editor .cantrip-breakpoint');

    // Target a troll, cast: the debugger stops on the breakpoint.
    const troll = (await page.evaluate(() => window.cantrip!.entities())).find((e) => e.breed === 'Troll')!;
    await page.locator('#world').click({ position: (await page.evaluate((i) => window.cantrip!.screenPosition(i), troll.id))! });
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    expect((await page.evaluate(() => window.cantrip!.debugState())).line).toBe(heatLine);
    await page.waitForSelector('#editor .cantrip-current-line');
    await page.waitForSelector('#bytecode .row.current');
    expect(await page.locator('#callstack li').first().textContent()).toContain('fireball()');
    await screenshot(page, 'debugger-paused');

    // Step over: the next line, with the local now set.
    await page.click('#dbg-over');
    await page.waitForFunction((l) => window.cantrip!.debugState().line === l, heatLine + 1);
    const locals = (await page.evaluate(() => window.cantrip!.debugState())).frames[0]!.locals;
    expect(locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'heat', value: '16' })]));
    expect(await page.locator('#locals').textContent()).toContain('heat');

    // Continue: the cast waits (wait(0.5)); game time passes; it stops at the line after the wait.
    await page.click('#dbg-continue');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'waiting');
    for (let i = 0; i < 6 && (await page.evaluate(() => window.cantrip!.debugState().state)) === 'waiting'; i++) await page.click('#world-step');
    await page.waitForFunction((l) => window.cantrip!.debugState().state === 'paused' && window.cantrip!.debugState().line === l, soundLine);
    await page.click('#dbg-continue');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    expect(await consoleText(page)).toContain('sound "boom"');
    await page.close();
  });

  it('drops a paused cast when the spell is edited: the damage dealt is the new code\'s, never the old', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell zap(caster, target) {\n  var dmg = 10;\n  damage(target, dmg);\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('zap'));
    const troll = (await page.evaluate(() => window.cantrip!.entities())).find((e) => e.breed === 'Troll')!;
    await page.locator('#world').click({ position: (await page.evaluate((i) => window.cantrip!.screenPosition(i), troll.id))! });
    await toggleBreakpoint(page, 3);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    // Two steps print "Paused in" once: the highlight shows where a step went.
    await page.click('#dbg-over');
    await page.evaluate(() => window.cantrip!.setSource('// edited\nspell zap(caster, target) {\n  var dmg = 100;\n  damage(target, dmg);\n}\n'));
    await page.waitForFunction(() => window.cantrip!.bytecode().includes("'100'"));
    const health = () => page.evaluate((id) => window.cantrip!.entities().find((e) => e.id === id)?.health ?? null, troll.id);
    const before = await health();
    // F5 after the edit: the old code's cast is dropped, and the console says so; nothing old runs.
    await page.keyboard.press('F5');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('The code changed: the debugged cast of zap ran the old code, so it was dropped.')));
    expect(await health()).toBe(before);
    expect((await consoleText(page)).match(/Paused in/g)?.length).toBe(1);
    // Cast again: the new code runs (100 damage, from the breakpoint's new line).
    await page.evaluate(() => window.cantrip!.setSource('// edited\nspell zap(caster, target) {\n  var dmg = 100;\n  damage(target, dmg);\n}\n'));
    await page.click('#dbg-enable');
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('zap finished (ran on the interpreter).')));
    const after = await health();
    // The new code's 100 (less armour) — the old code's 10 could not take more than 10.
    expect(after === null || before! - after > 10).toBe(true);
    await page.close();
  });

  it('puts a breakpoint clicked on a comment or blank line on the next line with code, hollows one left without code, and keeps them over a reload', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell poke(caster, target) {\n  // say it\n\n  print "one";\n  print "two";\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('poke'));
    await toggleBreakpoint(page, 2);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([4]);
    await toggleBreakpoint(page, 5);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([4, 5]);
    // Line 5's code becomes a comment: its breakpoint stays, drawn hollow (never hit), and says so.
    await page.evaluate(() => window.cantrip!.typeAt(5, '// '));
    await page.waitForSelector('#editor .cantrip-breakpoint-inactive');
    expect(await page.locator('#editor .cantrip-breakpoint').count()).toBe(2);
    expect(await page.locator('#editor .cantrip-breakpoint-inactive').count()).toBe(1);
    await screenshot(page, 'breakpoints-active-and-never-hit');
    await page.close();
    // The autosave keeps them with the text: a new visit (storage not cleared) has them back.
    const again = await harness.context.newPage();
    await again.goto(harness.url);
    await again.waitForFunction(() => window.cantrip?.ready === true, null, { timeout: 30_000 });
    expect(await again.evaluate(() => window.cantrip!.breakpoints())).toEqual([4, 5]);
    await again.evaluate(() => localStorage.clear());
    await again.close();
  });

  it('keeps the breakpoints over a visit to the breeds tab: drawn, hit, and kept by the next keystroke and the autosave (issue 33 §1)', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell poke(caster, target) {\n  print "one";\n  print "two";\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('poke'));
    await toggleBreakpoint(page, 2);
    await toggleBreakpoint(page, 3);
    await page.click('.tabs button[data-tab="breeds"]');
    await page.waitForFunction(() => window.cantrip!.cursor().tab === 'breeds');
    await page.click('.tabs button[data-tab="spell"]');
    await page.waitForFunction(() => window.cantrip!.cursor().tab === 'spell');
    await expect.poll(() => page.locator('#editor .cantrip-breakpoint').count()).toBe(2);
    // A keystroke after the visit keeps them (it used to read them back from decorations the tab switch had cleared).
    await page.click('#editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// more');
    await page.waitForFunction(() => window.cantrip!.source().includes('// more'));
    expect(await page.evaluate(() => window.cantrip!.breakpoints())).toEqual([2, 3]);
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('cantrip.playground.v1') ?? '{}').breakpoints)).toEqual([2, 3]);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    expect((await page.evaluate(() => window.cantrip!.debugState())).line).toBe(2);
    await page.click('#dbg-stop');
    await page.close();
  });

  it('goes on debugging when only a comment is added while paused: the step is taken on the moved lines, and the console does not contradict itself (issue 33 §2)', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell zap(caster, target) {\n  var a = 1;\n  print "one";\n  print "two";\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('zap'));
    await toggleBreakpoint(page, 3);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused' && window.cantrip!.debugState().line === 3);
    // A comment line above everything: every line moves down one, the code stays the same.
    await page.evaluate(() => window.cantrip!.typeAt(1, '// a note\n'));
    await page.waitForFunction(() => window.cantrip!.source().startsWith('// a note\n'));
    await page.keyboard.press('F10');
    await page.waitForFunction(() => window.cantrip!.debugState().line === 5);
    expect((await page.evaluate(() => window.cantrip!.debugState())).state).toBe('paused');
    expect(await page.evaluate(() => window.cantrip!.breakpoints())).toEqual([4]);
    await page.keyboard.press('F5');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    const text = await consoleText(page);
    expect(text).toContain('Only comments or blank lines changed: the debugged cast of zap goes on.');
    expect(text).not.toContain('dropped');
    expect(text).toMatch(/one\n(.|\n)*two/);
    await page.close();
  });

  it('puts a breakpoint only where a cast can stop: a header comment gives the first line of code, the last blank line none, a blank line before a breakpoint removes it (issue 33 §3)', async () => {
    const { page } = await openPage();
    await setSource(page, '// header\nspell poke(caster, target) {\n  print "one";\n\n  print "two";\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('poke'));
    await toggleBreakpoint(page, 1);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([3]);
    await toggleBreakpoint(page, 7);
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => window.cantrip!.breakpoints())).toEqual([3]);
    await toggleBreakpoint(page, 4);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([3, 5]);
    // The same blank line again: its target has a breakpoint, so the click takes it away (as the hint showed).
    await toggleBreakpoint(page, 4);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([3]);
    expect(await page.locator('#editor .cantrip-breakpoint-inactive').count()).toBe(0);
    // The spell line (where the top-level code declares the spell, never run under the debugger) stands for line 3 too.
    await toggleBreakpoint(page, 2);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([]);
    await toggleBreakpoint(page, 2);
    await expect.poll(() => page.evaluate(() => window.cantrip!.breakpoints())).toEqual([3]);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    expect((await page.evaluate(() => window.cantrip!.debugState())).line).toBe(3);
    await page.click('#dbg-continue');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    expect(await consoleText(page)).toContain('poke finished');
    await page.close();
  });

  it('steps over from `return b` back onto the call line, then the next line (issue 33 §9)', async () => {
    const { page } = await openPage();
    await setSource(page, 'fun pick(a, b) {\n  return b;\n}\nspell two(caster, target) {\n  var x = pick(1, 2);\n  print x;\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('pick'));
    await toggleBreakpoint(page, 2);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused' && window.cantrip!.debugState().line === 2);
    await page.keyboard.press('F10');
    await page.waitForFunction(() => window.cantrip!.debugState().line === 5);
    expect((await page.evaluate(() => window.cantrip!.debugState())).frames.map((f) => f.name)).toEqual(['two']);
    await page.keyboard.press('F10');
    await page.waitForFunction(() => window.cantrip!.debugState().line === 6);
    await page.keyboard.press('F5');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    expect(await consoleText(page)).toMatch(/^2$/m);
    await page.close();
  });

  it("says which tier ran a cast: both, when a looping spell's loop was compiled mid-cast (issue 33 §6)", async () => {
    const { page } = await openPage();
    await setSource(page, 'spell spin(caster, target) {\n  var total = 0;\n  for (var i = 0; i < 20000; i = i + 1) total = total + i;\n  print total;\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('spin'));
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.startsWith('spin finished')));
    const line = (await page.evaluate(() => window.cantrip!.console())).find((e) => e.text.startsWith('spin finished'))!.text;
    expect(line).toMatch(/^spin finished \(ran on both: the interpreter, then compiled code/);
    await page.close();
  });

  it('explains a top-level damage(t, 3) as a world function, not as a bare argument error (issue 33 §8)', async () => {
    const { page } = await openPage();
    await setSource(page, 'var t = 1;\ndamage(t, 3);\n');
    await page.waitForFunction(() => window.cantrip!.compileCount() > 0 && window.cantrip!.markers().every((m) => m.severity !== 'error'));
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.kind === 'error'));
    const error = (await page.evaluate(() => window.cantrip!.console())).find((e) => e.kind === 'error')!;
    expect(error.text).toMatch(/^damage\(\) acts on the world, so it only works inside a spell that is cast\./);
    expect(error.line).toBe(2);
    await page.close();
  });

  it('sets no breakpoint from the empty gutter below the last line; Cast is off while the spell has errors', async () => {
    const { page } = await openPage();
    await setSource(page, 'spell poke(caster, target) {\n  print "one";\n}');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('poke'));
    const last = page.locator('#editor .line-numbers', { hasText: /^3$/ });
    // Monaco may lay the lines out again just after a new text: wait until line 3's number is on screen.
    await last.waitFor({ state: 'visible' });
    let box = await last.boundingBox();
    await expect.poll(async () => (box = await last.boundingBox())).not.toBeNull();
    box = box!;
    await page.mouse.click(box.x - 12, box.y + box.height * 4);
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => window.cantrip!.breakpoints())).toEqual([]);
    await page.mouse.click(box.x - 12, box.y + box.height / 2);
    expect(await page.evaluate(() => window.cantrip!.breakpoints())).toEqual([3]);
    await page.evaluate(() => window.cantrip!.setSource('spell poke(caster, target) {\n  print "one"\n}'));
    await page.waitForFunction(() => (document.getElementById('cast') as HTMLButtonElement).disabled);
    expect(await page.getAttribute('#cast', 'title')).toContain('compile errors');
    await page.close();
  });

  it('debugs a real cast of the world: same globals as plain casts, errors reported once', async () => {
    const { page } = await openPage();
    const source = 'var hits = 0;\nspell count(caster, target) {\n  hits += 1;\n  print "hits " + str(hits);\n  if (hits == 3) print nil + 1;\n}\n';
    await setSource(page, source);
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('count'));
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text === 'hits 1'));

    await toggleBreakpoint(page, 4);
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    const paused = await page.evaluate(() => window.cantrip!.debugState());
    expect(paused.line).toBe(4);
    await page.click('#dbg-continue');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    // The debugged cast ran in the world: it saw and changed the world's `hits`.
    expect((await page.evaluate(() => window.cantrip!.console())).filter((e) => e.kind === 'out').map((e) => e.text)).toEqual(['hits 1', 'hits 2']);

    // A runtime error while debugging: one console entry, with its line.
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'paused');
    await page.click('#dbg-continue');
    await page.waitForFunction(() => window.cantrip!.debugState().state === 'idle');
    const errors = (await page.evaluate(() => window.cantrip!.console())).filter((e) => e.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.text).toMatch(/^Operands must be/);
    expect(errors[0]!.line).toBe(5);
    await page.close();
  });

  it('explains world functions in top-level code instead of a bare "needs a cast"', async () => {
    const { page } = await openPage();
    await setSource(page, 'print "hi";\nspawn("Troll", 3, 4);\nspell poke(caster, target) { print "poked"; }\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('poke'));
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.kind === 'error'));
    const run = (await page.evaluate(() => window.cantrip!.console())).find((e) => e.kind === 'error')!;
    expect(run.text).toMatch(/^spawn\(\) acts on the world, so it only works inside a spell that is cast\./);
    expect(run.line).toBe(2);
    expect(await consoleText(page)).toContain('hi');
    await page.click('#cast');
    // The running world takes the new code with its breeds and entities in place (World.restore runs the
    // script once they are back), so the top-level spawn happens there, and the cast runs.
    await page.waitForFunction(() => window.cantrip!.entities().some((e) => e.breed === 'Troll' && e.x === 3 && e.y === 4));
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text.includes('poked')));
    expect((await page.evaluate(() => window.cantrip!.console())).filter((e) => e.kind === 'error')).toHaveLength(1);
    await page.close();
  });

  it('keeps the console readable with hundreds of entities: a few AOI lines per tick, then a count', async () => {
    const { page, errors } = await openPage();
    await setSource(page, 'spell horde(caster, target) {\n  for (var i = 0; i < 300; i += 1) spawn("Troll", random() * 40, random() * 30);\n}\n');
    await page.waitForFunction(() => window.cantrip!.bytecode().includes('horde'));
    await page.click('#cast');
    await page.waitForFunction(() => window.cantrip!.entities().length > 300);
    for (let i = 0; i < 3; i++) await page.click('#world-step');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => /more AOI enter\/leave events$/.test(e.text)));
    const perTick = new Map<string, number>();
    for (const e of await page.evaluate(() => window.cantrip!.console())) {
      const aoi = /^\[tick (\d+)\] #\d+ (enters|leaves) the range/.exec(e.text);
      if (aoi) perTick.set(aoi[1]!, (perTick.get(aoi[1]!) ?? 0) + 1);
    }
    expect(Math.max(...perTick.values())).toBeLessThanOrEqual(6);
    await screenshot(page, 'many-entities');
    expect(errors).toEqual([]);
    expect((await page.evaluate(() => window.cantrip!.console())).filter((e) => e.kind === 'error')).toEqual([]);
    await page.close();
  });

  it('fits windows from 1600×900 down to 1024×700: no header or toolbar overflows or wraps', async () => {
    const { page } = await openPage();
    const overflowing = () => page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.toolbar, .pane h2, .tabs')]
        // Cut off sideways, or buttons wrapping their labels onto a second line.
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || el.getBoundingClientRect().height > 44)
        .map((el) => el.textContent?.trim().slice(0, 40)),
    );
    for (const [width, height] of [[1600, 900], [1440, 900], [1280, 800], [1024, 700]] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(200);
      expect({ width, overflowing: await overflowing() }).toEqual({ width, overflowing: [] });
    }
    await screenshot(page, 'narrow');
    await page.close();
  });

  it('shows a script with no spell as such: Run, not Cast', async () => {
    const { page } = await openPage();
    await page.selectOption('#examples', 'hello');
    await page.waitForFunction(() => window.cantrip!.source().includes('fun greet'));
    expect(await page.locator('#spell-select option').allTextContents()).toEqual(['(none)']);
    expect(await page.locator('#cast').isDisabled()).toBe(true);
    expect(await consoleText(page)).toContain('a script with no spell — press Run');
    await page.click('#run');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => e.text === 'Hello, apprentice!'));
    await page.close();
  });

  it("gives an example its own scenario's layout when spells/scenarios has one (traps), and the default otherwise", async () => {
    const { page } = await openPage();
    await page.selectOption('#examples', 'traps');
    await page.waitForFunction(() => window.cantrip!.entities().some((e) => e.breed === 'Spike Trap'));
    expect((await page.evaluate(() => window.cantrip!.entities())).map((e) => e.breed).sort()).toEqual(['Shrine', 'Spike Trap', 'Troll', 'Wizard']);
    expect(await consoleText(page)).toContain('The world now holds the traps scenario');
    // The trap's onEnter spell hurts the troll walking into it.
    for (let i = 0; i < 8; i++) await page.click('#world-step');
    await page.waitForFunction(() => window.cantrip!.console().some((e) => /Troll#\d+ takes \d+ damage/.test(e.text)));
    await page.selectOption('#examples', 'fireball');
    await page.waitForFunction(() => !window.cantrip!.entities().some((e) => e.breed === 'Spike Trap'));
    expect(await consoleText(page)).toContain('The world now holds the trolls scenario');
    await page.close();
  });

  it('reopens the same source from a share link', async () => {
    const { page } = await openPage();
    const source = 'spell shared(caster, target) {\n  print "shared ✨";\n}\n';
    await setSource(page, source);
    const url = await page.evaluate(() => window.cantrip!.share());
    expect(url).toContain('#code/');
    await page.close();
    const { page: reopened } = await openPage(url.slice(url.indexOf('#')));
    expect(await reopened.evaluate(() => window.cantrip!.source())).toBe(source);
    await reopened.close();
  });
});
