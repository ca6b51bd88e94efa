/**
 * Every command reads cantrip.json the one way (bin/project-config.ts's
 * `Projects`): `check`, `compile`, `disasm`, `run`, `sim` and `serve` see
 * the same game API and the same broken config, and `sim` / `serve` say
 * which names a scenario's spells call that nothing defines before any
 * world runs (exit 65), where `sim` once failed on them as cast errors.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/temp-dir.test-helper.js';
import { main } from '../cli.js';

async function cantrip(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

const API = JSON.stringify({
  format: 'cantrip-host-api',
  version: 1,
  functions: [
    { name: 'giveGold', params: [{ name: 'target', type: 'entity' }, { name: 'amount', type: 'number' }], returns: 'number', doc: 'Give gold.' },
    { name: 'shake', params: [{ name: 'seconds', type: 'number' }], returns: 'nil', doc: 'Shake the camera.' },
  ],
});
const BREEDS = JSON.stringify({ breeds: [{ name: 'Hero', health: 10 }] });
const MORE_BREEDS = JSON.stringify({ breeds: [{ name: 'Goblin', parent: 'Hero', health: 5 }] });
const LOOT = 'spell loot(caster, target) {\n  giveGold(caster, 5);\n  damage(target, 1);\n}\n';
const SCENARIO = JSON.stringify({
  breeds: 'breeds.json',
  spells: ['loot.spell'],
  world: { width: 10, height: 10 },
  ticks: 2,
  entities: [
    { name: 'hero', breed: 'Hero', x: 1, y: 1 },
    { name: 'gob', breed: 'Hero', x: 2, y: 1 },
  ],
  casts: [{ tick: 0, spell: 'loot', caster: 'hero', target: 'gob' }],
});

/** A game folder: cantrip.json naming the API and two breeds files, a spell, a scenario. */
function game(files: Record<string, string> = {}): string {
  const dir = tempDir('cantrip-project-everywhere-');
  const all: Record<string, string> = {
    'cantrip.json': JSON.stringify({ breeds: ['breeds.json', 'more-breeds.json'], api: 'game-api.json' }),
    'game-api.json': API,
    'breeds.json': BREEDS,
    'more-breeds.json': MORE_BREEDS,
    'loot.spell': LOOT,
    'scenario.json': SCENARIO,
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('cantrip.json, read by every command', () => {
  it('check, compile and disasm know the game API it names', async () => {
    const dir = game();
    expect(await cantrip('check', join(dir, 'loot.spell'))).toMatchObject({ code: 0, out: 'checked 1 file: 0 errors, 0 warnings\n' });
    expect(await cantrip('compile', join(dir, 'loot.spell'))).toMatchObject({ code: 0, err: '' });
    expect((await cantrip('disasm', join(dir, 'loot.spell'))).out).toMatch(/HOST.*giveGold|giveGold/);
  });

  it('sim runs the scenario with the game’s functions declared: each call is a host-call event', async () => {
    const dir = game();
    const r = await cantrip('sim', join(dir, 'scenario.json'), '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const events = r.out.trim().split('\n').map((line) => JSON.parse(line) as { type: string; name?: string });
    expect(events.filter((e) => e.type === 'host-call').map((e) => e.name)).toEqual(['giveGold']);
    expect(events.some((e) => e.type === 'cast-error')).toBe(false);
  });

  it('sim reports a name nothing defines before the world runs, as check reports it, and exits 65', async () => {
    const dir = game({ 'loot.spell': 'spell loot(caster, target) {\n  giveGold(caster, 5);\n  awardXp(caster, 3);\n}\n' });
    const r = await cantrip('sim', join(dir, 'scenario.json'));
    expect(r.code).toBe(65);
    expect(r.out).toBe('');
    expect(r.err).toContain(`${join(dir, 'loot.spell')}:3:3: warning: Undefined variable 'awardXp'.`);
    expect(r.err).toContain(`note: 'awardXp' is not a built-in, not in ${join(dir, 'game-api.json')} and not declared in this file`);
    expect(r.err).toMatch(/cantrip: .*scenario\.json: not run: its spells call names nothing defines, which would fail mid-run\.\n$/);
    // check says the same of the file.
    expect((await cantrip('check', join(dir, 'loot.spell'))).out).toContain("Undefined variable 'awardXp'.");
  });

  it('a cantrip.json that cannot be used stops run, compile, sim and serve alike (exit 65), and is an error in check', async () => {
    const dir = game({ 'cantrip.json': JSON.stringify({ api: 'game-api.json', extra: 1 }), 'hello.spell': 'print 1;\n' });
    const problem = `cantrip: ${join(dir, 'cantrip.json')}: unknown field 'extra'`;
    for (const argv of [['run', join(dir, 'hello.spell')], ['compile', join(dir, 'hello.spell')], ['sim', join(dir, 'scenario.json')], ['serve', join(dir, 'scenario.json'), '--ticks', '1', '--summary', join(dir, 's.json')]]) {
      const r = await cantrip(...argv);
      expect([argv[0], r.code], r.err).toEqual([argv[0], 65]);
      expect(r.err.startsWith(problem), `${argv[0]}: ${r.err}`).toBe(true);
    }
    const check = await cantrip('check', join(dir, 'hello.spell'));
    expect([check.code, check.out]).toEqual([65, expect.stringContaining("unknown field 'extra'")]);
  });

  it('a name defined in two of its breeds files is an error naming both', async () => {
    const dir = game({ 'more-breeds.json': JSON.stringify({ breeds: [{ name: 'Hero' }] }) });
    const r = await cantrip('compile', join(dir, 'loot.spell'));
    expect(r.code).toBe(65);
    expect(r.err).toContain(`Breed 'Hero': field 'name' is defined in both ${join(dir, 'breeds.json')} and ${join(dir, 'more-breeds.json')}.`);
  });

  it('run compiles against the game API and, when a call reaches a game function, says it has no game', async () => {
    const dir = game({ 'top.spell': 'print 1;\nshake(2);\n' });
    const r = await cantrip('run', join(dir, 'top.spell'));
    expect(r.out).toBe('1\n');
    expect(r.code).toBe(70);
    expect(r.err).toContain(`shake() is one of your game's host functions (${join(dir, 'game-api.json')}): \`cantrip run\` has no game to call it.`);
    expect((await cantrip('run', join(dir, 'top.spell').replace('top', 'nothing'))).code).toBe(66);
  });

  it('serve checks the scenario’s spells against what a served world has — no game functions — before serving', async () => {
    const dir = game();
    const r = await cantrip('serve', join(dir, 'scenario.json'), '--ticks', '1', '--summary', join(dir, 's.json'));
    expect(r.code).toBe(65);
    expect(r.err).toContain(`note: 'giveGold' is declared in ${join(dir, 'game-api.json')}, but \`cantrip serve\` runs the world without your game`);
    expect(r.err).not.toContain('pass --api');
  });
});
