/**
 * The debug adapter as an editor runs it: `node bin/cantrip.js dap` (needs
 * `npm run build` first), driven by a plain DAP client over stdio. A script
 * (breakpoints, variables, steps, evaluate, output, exit codes), a cast in a
 * world that waits, a scenario, and the mistakes a user makes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DapClient } from './dap-client.js';

const SCRIPT = [
  '// Rolls on a loot table.', // 1
  'var table = ["gold", "potion", "sword"];', // 2
  'var rolls = 0;', // 3
  '', // 4
  'fun pick(index) {', // 5
  '  var name = table[index];', // 6
  '  rolls += 1;', // 7
  '  return name;', // 8
  '}', // 9
  '', // 10
  'print pick(1);', // 11
  'print "rolled " + str(rolls);', // 12
  '', // 13
].join('\n');

const FAILING = 'var items = [1, 2];\nprint items[0];\nprint items[5];\n';
const CHEST = [
  'class Chest {', // 1
  '  init(owner) {', // 2
  '    this.owner = owner;', // 3
  '    this.bag = {"gold": 3, "keys": ["iron", "brass"]};', // 4
  '  }', // 5
  '}', // 6
  'var chest = Chest("Ada");', // 7
  'print len(chest.bag);', // 8
  '',
].join('\n');
const BROKEN = 'var a = 1;\nprint a +;\n';
const ENDLESS = 'var n = 0;\nwhile (true) {\n  n = n + 1;\n}\n';

const BREEDS = { breeds: [{ name: 'Mage', health: 20, attributes: { wisdom: 8 } }, { name: 'Goblin', health: 12, attributes: { armor: 1 } }] };
const FIREBOLT = [
  'spell firebolt(caster, target) {', // 1
  '  var heat = 4 + caster.wisdom / 2;', // 2
  '  damage(target, heat - target.armor);', // 3
  '  wait(0.5);', // 4
  '  print "burnt: " + str(target.health);', // 5
  '}', // 6
  '', // 7
].join('\n');

let dir: string;
let client: DapClient | null = null;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cantrip-dap-'));
  writeFileSync(file('loot.spell'), SCRIPT);
  writeFileSync(file('failing.spell'), FAILING);
  writeFileSync(file('chest.spell'), CHEST);
  writeFileSync(file('broken.spell'), BROKEN);
  writeFileSync(file('endless.spell'), ENDLESS);
  writeFileSync(file('cantrip.json'), JSON.stringify({ breeds: 'breeds.json' }));
  writeFileSync(file('breeds.json'), JSON.stringify(BREEDS));
  writeFileSync(file('firebolt.spell'), FIREBOLT);
  writeFileSync(file('patrol.spell'), 'spell patrol(caster, target) {\n  var rounds = 0;\n  while (true) {\n    wait(1);\n    rounds += 1;\n  }\n}\n');
  writeFileSync(
    file('skirmish.json'),
    JSON.stringify({
      breeds: 'breeds.json',
      spells: ['firebolt.spell'],
      world: { width: 20, height: 20, step: 0.1 },
      ticks: 20,
      entities: [
        { name: 'mage', breed: 'Mage', x: 5, y: 5 },
        { name: 'goblin', breed: 'Goblin', x: 7, y: 5 },
      ],
      casts: [{ tick: 2, spell: 'firebolt', caster: 'mage', target: 'goblin' }],
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(async () => {
  await client?.close();
  client = null;
});

function start(): DapClient {
  client = new DapClient(dir);
  return client;
}

describe('cantrip dap: a script', () => {
  it('stops at a breakpoint moved to the next line with code, shows the frames and variables, steps, and ends with exit 0', async () => {
    const c = start();
    const launch = await c.launch({ program: file('loot.spell') }, { [file('loot.spell')]: [4, 6, 40] });
    expect(launch.success).toBe(true);
    const set = c.received.find((m) => m.command === 'setBreakpoints')!.body.breakpoints;
    // The blank line 4 moves to the next line with code (5, where the script defines pick); 6 is in pick; 40 is past the end.
    expect(set.map((b: { verified: boolean; line: number }) => [b.verified, b.line])).toEqual([
      [true, 5],
      [true, 6],
      [false, 40],
    ]);
    expect(set[2].message).toMatch(/No code on or after this line/);

    // Line 5 (`fun pick`) is top-level code: the script defines the function there.
    expect((await c.event('stopped')).body.reason).toBe('breakpoint');
    expect((await c.topFrame()).line).toBe(5);
    await c.request('continue', { threadId: 1 });
    expect((await c.event('stopped')).body.reason).toBe('breakpoint');
    const trace = await c.request('stackTrace', { threadId: 1 });
    expect(trace.body.stackFrames.map((f: { name: string; line: number }) => [f.name, f.line])).toEqual([
      ['pick', 6],
      ['<script>', 11],
    ]);
    expect(trace.body.stackFrames[0].source.path).toBe(file('loot.spell'));
    const frame = trace.body.stackFrames[0].id;

    const locals = await c.scope(frame, 'Locals');
    expect(locals.get('index')!.value).toBe('1');
    const globals = await c.scope(frame, 'Globals');
    expect(globals.get('table')!.value).toBe('[gold, potion, sword]');
    const elements = await c.children(globals.get('table')!.variablesReference);
    expect([...elements].map(([name, v]) => [name, v.value])).toEqual([
      ['[0]', '"gold"'],
      ['[1]', '"potion"'],
      ['[2]', '"sword"'],
    ]);

    await c.request('next', { threadId: 1 });
    expect((await c.event('stopped')).body.reason).toBe('step');
    expect((await c.topFrame()).line).toBe(7);
    expect((await c.scope((await c.topFrame()).id, 'Locals')).get('name')!.value).toBe('"potion"');
    await c.request('stepOut', { threadId: 1 });
    await c.event('stopped');
    // Back in the caller, on the call's line first (as the playground steps): the rest of line 11 (the print) has not run.
    expect((await c.topFrame()).line).toBe(11);
    expect(c.output('stdout')).toBe('');
    await c.request('next', { threadId: 1 });
    await c.event('stopped');
    // The rest of line 11 ran; the stop is at the next line.
    expect((await c.topFrame()).line).toBe(12);
    expect(c.output('stdout')).toBe('potion\n');

    await c.request('continue', { threadId: 1 });
    expect((await c.event('exited')).body.exitCode).toBe(0);
    await c.event('terminated');
    expect(c.output('stdout')).toBe('potion\nrolled 1\n');
  });

  it('evaluates expressions in the paused frame, read-only', async () => {
    const c = start();
    await c.launch({ program: file('loot.spell') }, { [file('loot.spell')]: [7] });
    await c.event('stopped');
    const frame = (await c.topFrame()).id;
    const evaluate = (expression: string) => c.request('evaluate', { expression, frameId: frame, context: 'repl' });

    const sum = await evaluate('index * 10 + len(table)');
    expect(sum.success).toBe(true);
    expect(sum.body.result).toBe('13');
    const list = await evaluate('[name, table[0]]');
    expect(list.body.result).toBe('[potion, gold]');
    expect([...(await c.children(list.body.variablesReference)).values()].map((v) => v.value)).toEqual(['"potion"', '"gold"']);

    const assignment = await evaluate('rolls = 100');
    expect(assignment.success).toBe(false);
    expect(assignment.message).toMatch(/read-only: it does not assign to 'rolls'/);
    const compound = await evaluate('table[0] += "!"');
    expect(compound.success).toBe(false);
    expect(compound.message).toMatch(/read-only/);
    const call = await evaluate('pick(0)');
    expect(call.message).toMatch(/does not call the program's functions/);
    const method = await evaluate('table.append(1)');
    expect(method.message).toMatch(/does not call methods/);
    const statement = await evaluate('1; print 2');
    expect(statement.message).toMatch(/one expression/);
    expect((await evaluate('nothing + 1')).message).toBe("Undefined variable 'nothing'.");
    expect((await evaluate('index +')).success).toBe(false);

    // Nothing the refused expressions named has changed: the program goes on as it would have.
    await c.request('continue', { threadId: 1 });
    expect((await c.event('exited')).body.exitCode).toBe(0);
    expect(c.output('stdout')).toBe('potion\nrolled 1\n');
  });

  it('opens instances, maps and the lists inside them', async () => {
    const c = start();
    await c.launch({ program: file('chest.spell') }, { [file('chest.spell')]: [8] });
    await c.event('stopped');
    const globals = await c.scope((await c.topFrame()).id, 'Globals');
    expect(globals.get('chest')!.value).toBe('Chest instance');
    const chest = await c.children(globals.get('chest')!.variablesReference);
    expect(chest.get('owner')!.value).toBe('"Ada"');
    const bag = await c.children(chest.get('bag')!.variablesReference);
    expect([...bag.keys()]).toEqual(['"gold"', '"keys"']);
    expect(bag.get('"gold"')!.value).toBe('3');
    const keysReference = bag.get('"keys"')!.variablesReference;
    const keys = await c.children(keysReference);
    expect([...keys.values()].map((v) => v.value)).toEqual(['"iron"', '"brass"']);
    // An editor pages a long list by index, and asks for a list's named children apart: there are none.
    const page = await c.request('variables', { variablesReference: keysReference, filter: 'indexed', start: 1, count: 1 });
    expect(page.body.variables.map((v: { name: string }) => v.name)).toEqual(['[1]']);
    const named = await c.request('variables', { variablesReference: keysReference, filter: 'named' });
    expect(named.body.variables).toEqual([]);
  });

  it('stops on entry when asked', async () => {
    const c = start();
    await c.launch({ program: file('loot.spell'), stopOnEntry: true });
    expect((await c.event('stopped')).body.reason).toBe('entry');
    expect((await c.topFrame()).line).toBe(2);
    await c.request('stepIn', { threadId: 1 });
    await c.event('stopped');
    expect((await c.topFrame()).line).toBe(3);
  });

  it('a runtime error is output on stderr with its line and exits 70', async () => {
    const c = start();
    await c.launch({ program: file('failing.spell') });
    expect((await c.event('exited')).body.exitCode).toBe(70);
    await c.event('terminated');
    expect(c.output('stdout')).toBe('1\n');
    expect(c.output('stderr')).toBe('List index out of range.\n[line 3] in script\n');
    const located = c.received.find((m) => m.event === 'output' && m.body.category === 'stderr')!;
    expect(located.body.line).toBe(3);
  });

  it('a compile error is output with its line and exits 65', async () => {
    const c = start();
    const launch = await c.launch({ program: file('broken.spell') });
    expect(launch.success).toBe(true);
    expect((await c.event('exited')).body.exitCode).toBe(65);
    const error = c.received.find((m) => m.event === 'output' && m.body.category === 'stderr')!;
    expect(error.body.output).toMatch(/broken\.spell:2:\d+: error: /);
    expect(error.body.line).toBe(2);
    expect(error.body.source.path).toBe(file('broken.spell'));
  });

  it('pauses a spell in an endless loop, and stops it', async () => {
    const c = start();
    await c.launch({ program: file('endless.spell') });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const pause = await c.request('pause', { threadId: 1 });
    expect(pause.success).toBe(true);
    const stopped = await c.event('stopped');
    expect(stopped.body.reason).toBe('pause');
    expect([2, 3, 4]).toContain((await c.topFrame()).line); // wherever the loop was: its condition, its body or its jump back
    const n = Number((await c.scope((await c.topFrame()).id, 'Globals')).get('n')!.value);
    expect(n).toBeGreaterThan(0);
    await c.request('disconnect', { terminateDebuggee: true });
    expect(await c.exit).toBe(0);
  });

  it('refuses a launch it cannot do with a clear message, and stays up', async () => {
    const c = start();
    // A frame that is not JSON is skipped (and said on stderr); the next one is answered.
    c.sendRaw('Content-Length: 9\r\n\r\nnot json!');
    const missing = await c.launch({ program: file('nowhere.spell') });
    expect(missing.success).toBe(false);
    expect(missing.message).toMatch(/nowhere\.spell/);
    expect(missing.message).not.toMatch(/ at .*\.js:\d+/);
    const bad = await c.request('launch', { program: file('loot.spell'), fuel: -3 });
    expect(bad.message).toBe("'fuel' must be a positive whole number, got -3.");
    const none = await c.request('launch', {});
    expect(none.message).toMatch(/needs 'program'/);
    // @vscode/debugadapter would end the process 100 ms after the bad frame: the session is still there after that.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await c.request('threads')).success).toBe(true);
    expect(c.stderr).toMatch(/cantrip dap: Error handling data/);
  });
});

describe('cantrip dap: a world', () => {
  it('casts a spell in a world of the project breeds; a wait steps the world until the cast wakes', async () => {
    const c = start();
    const launch = await c.launch(
      { program: file('firebolt.spell'), spell: 'firebolt', args: [{ breed: 'Mage' }, { breed: 'Goblin', x: 52, y: 50 }] },
      { [file('firebolt.spell')]: [3] },
    );
    expect(launch.success).toBe(true);
    await c.event('stopped');
    const frame = await c.topFrame();
    expect([frame.name, frame.line]).toEqual(['firebolt', 3]);
    const locals = await c.scope(frame.id, 'Locals');
    expect(locals.get('heat')!.value).toBe('8');
    const goblin = await c.children(locals.get('target')!.variablesReference);
    expect(goblin.get('breed')!.value).toBe('"Goblin"');
    expect(goblin.get('health')!.value).toBe('12');
    expect(goblin.get('armor')!.value).toBe('1');
    const distance = await c.request('evaluate', { expression: 'distance(caster, target)', frameId: frame.id });
    expect(distance.body.result).toBe('2');
    const damage = await c.request('evaluate', { expression: 'damage(target, 100)', frameId: frame.id });
    expect(damage.message).toMatch(/does not call damage\(\): it has effects/);

    await c.request('next', { threadId: 1 });
    await c.event('stopped');
    expect((await c.topFrame()).line).toBe(4);
    // Stepping over the wait stops in it, paused in time; the next step steps the world (0.5 s) until the cast wakes.
    await c.request('next', { threadId: 1 });
    const waiting = await c.event('stopped');
    expect(waiting.body.description).toMatch(/^firebolt is waiting until t=0\.50 s \(now t=0\.00 s, tick 0\)/);
    const inWait = await c.topFrame();
    expect(inWait.line).toBe(4);
    expect((await c.scope(inWait.id, 'Locals')).get('heat')!.value).toBe('8');
    await c.request('next', { threadId: 1 });
    expect((await c.event('stopped')).body.reason).toBe('step');
    const woke = await c.topFrame();
    expect(woke.line).toBe(5);
    expect((await c.request('evaluate', { expression: 'now()', frameId: woke.id })).body.result).toBe('0.5');
    await c.request('continue', { threadId: 1 });
    expect((await c.event('exited')).body.exitCode).toBe(0);
    expect(c.output('stdout')).toBe('burnt: 5\n');
    expect(c.output('console')).toMatch(/Goblin#2 takes 7 damage/);
  });

  it('pauses a cast that waits forever while the world steps, showing it waiting in time', async () => {
    const c = start();
    await c.launch({ program: file('patrol.spell'), spell: 'patrol', args: [{ breed: 'Mage' }] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await c.request('pause', { threadId: 1 });
    const stopped = await c.event('stopped');
    expect(stopped.body.reason).toBe('pause');
    expect(stopped.body.description).toMatch(/^patrol is waiting until t=\d+\.\d\d s \(now t=/);
    const frame = await c.topFrame();
    expect(frame.line).toBe(4);
    const rounds = Number((await c.scope(frame.id, 'Locals')).get('rounds')!.value);
    // The world stepped about a second for each round.
    const now = Number((await c.request('evaluate', { expression: 'now()', frameId: frame.id })).body.result);
    expect(rounds).toBeGreaterThan(0);
    expect(Math.floor(now)).toBe(rounds);
  });

  it('a cast that fails exits 70, its error on stderr', async () => {
    const c = start();
    await c.launch({ program: file('firebolt.spell'), spell: 'firebolt', args: [{ breed: 'Mage' }, null] });
    expect((await c.event('exited')).body.exitCode).toBe(70);
    expect(c.output('stderr')).toMatch(/\[line 3\] in firebolt\(\)/);
  });

  it('steps a scenario as cantrip sim does, stopping in its casts', async () => {
    const c = start();
    await c.launch({ scenario: file('skirmish.json') }, { [file('firebolt.spell')]: [1] });
    const set = c.received.find((m) => m.command === 'setBreakpoints')!.body.breakpoints[0];
    // The spell's header is top-level code (the world ran it on load): the breakpoint moves into the spell.
    expect([set.verified, set.line]).toEqual([true, 2]);
    await c.event('stopped');
    const frame = await c.topFrame();
    expect([frame.name, frame.line]).toEqual(['firebolt', 2]);
    expect((await c.request('evaluate', { expression: 'now()', frameId: frame.id })).body.result).toBe('0.2');
    await c.request('continue', { threadId: 1 });
    expect((await c.event('exited')).body.exitCode).toBe(0);
    expect(c.output('console')).toMatch(/\[tick 2\] Mage#1 casts firebolt on Goblin#2/);
  });

  it("reads the project as every command does: a cantrip.json that cannot be used, or a scenario's spell calling a name nothing defines, ends the launch with 65 and why", async () => {
    const bad = join(dir, 'bad-project');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, 'cantrip.json'), JSON.stringify({ breeds: 'breeds.json', colour: 'red' }));
    writeFileSync(join(bad, 'zap.spell'), 'spell zap(caster, target) {\n  print 1;\n}\n');
    const c = start();
    await c.launch({ program: join(bad, 'zap.spell'), spell: 'zap', args: [null, null] });
    expect((await c.event('exited')).body.exitCode).toBe(65);
    expect(c.output('stderr')).toContain(`cantrip: ${join(bad, 'cantrip.json')}: unknown field 'colour'`);
    await c.close();

    writeFileSync(file('typo.spell'), 'spell typo(caster, target) {\n  damag(target, 1);\n}\n');
    writeFileSync(file('typo.json'), JSON.stringify({ breeds: 'breeds.json', spells: ['typo.spell'], world: { width: 10, height: 10 } }));
    const d = start();
    await d.launch({ scenario: file('typo.json') });
    expect((await d.event('exited')).body.exitCode).toBe(65);
    // check's report, as `cantrip sim` gives it, before the world runs (no tick was described).
    expect(d.output('stderr')).toMatch(/typo\.spell:2:\d+.*damag/s);
    expect(d.output('stderr')).toMatch(/not run: its spells call names nothing defines/);
    expect(d.output('stderr')).toMatch(/If it is one of your game's functions, name the game's API file in a cantrip\.json/);
    expect(d.output('stderr')).not.toMatch(/--api/);
    expect(d.output('console')).not.toMatch(/\[tick/);
  });
});
