import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import type { CliIO } from './io.js';
import { ProjectCache, findConfigFile, loadProject } from './project-config.js';

const io: CliIO = { stdout: () => {}, stderr: () => {} };

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

const root = mkdtempSync(join(tmpdir(), 'cantrip-project-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const BREEDS = JSON.stringify({ breeds: [{ name: 'Troll', attributes: { wisdom: 2 } }] });
const MORE_BREEDS = JSON.stringify({ breeds: [{ name: 'Troll Wizard', parent: 'Troll', attributes: { mana: 9 } }] });
const API = JSON.stringify({ format: 'cantrip-host-api', version: 1, functions: [{ name: 'shake', params: [{ name: 'seconds', type: 'number' }], returns: 'nil', doc: 'Shake.' }] });
const SPELL = 'spell s(caster, target) {\n  shake(1);\n  print caster.wisdm + caster.mana;\n}\n';

describe('cantrip.json', () => {
  it('is found by walking up from the spell, and gives check the breeds (several files) and the API', async () => {
    const dir = project('good', { 'cantrip.json': JSON.stringify({ breeds: ['breeds/a.json', 'breeds/b.json'], api: 'api.json' }), 'breeds/a.json': BREEDS, 'breeds/b.json': MORE_BREEDS, 'api.json': API, 'deep/down/s.spell': SPELL });
    expect(findConfigFile(join(dir, 'deep/down/s.spell'))).toBe(join(dir, 'cantrip.json'));
    const r = await run('check', '--format', 'clox', join(dir, 'deep/down/s.spell'));
    expect([r.code, r.out]).toEqual([0, `${join(dir, 'deep/down/s.spell')}: [line 3] Warning at 'wisdm': No breed has a property 'wisdm'; did you mean 'wisdom'?\n`]);
    expect((await run('compile', join(dir, 'deep/down/s.spell'), '-o', join(dir, 's.spb'))).code).toBe(0);
  });

  it('without one, spells are checked against the built-in API', async () => {
    const dir = project('none', { 's.spell': SPELL });
    expect(loadProject(join(dir, 's.spell'), io)).toMatchObject({ problems: [], breeds: null });
    const r = await run('check', '--format', 'clox', join(dir, 's.spell'));
    expect(r.out).toContain("Undefined variable 'shake'.");
  });

  it.each([
    ['{ "breeds": 3 }', /'breeds' must be a path or a list of paths/],
    ['{ "api": "api.json", "extra": 1 }', /unknown field 'extra'/],
    ['[1, 2]', /holds an object/],
    ['{ "breeds": ', /JSON syntax error at line 1/],
    ['{ "breeds": "missing.json" }', /cannot read '.*missing\.json'/],
    ['{ "api": "bad.json" }', /bad\.json/],
  ])('%s is an error on each spell (check exit 65), and stops compile', async (config, message) => {
    const dir = project(`bad-${Math.random().toString(36).slice(2)}`, { 'cantrip.json': config, 'bad.json': '{"format": 1}', 's.spell': 'print 1;\n' });
    const check = await run('check', '--format', 'clox', join(dir, 's.spell'));
    expect(check.code).toBe(65);
    expect(check.out).toMatch(message);
    expect(check.out).toContain('cantrip.json');
    const compile = await run('compile', join(dir, 's.spell'));
    expect(compile.code).toBe(65);
    expect(compile.err).toMatch(message);
  });

  it('--api and --breeds on the command line win over the config', async () => {
    const dir = project('override', { 'cantrip.json': '{ "breeds": 3 }', 'api.json': API, 's.spell': 'shake(1);\n' });
    const r = await run('check', '--api', join(dir, 'api.json'), '--format', 'clox', join(dir, 's.spell'));
    expect(r.out).not.toContain("Undefined variable 'shake'");
  });

  it('reloads a project when a file it reads changes', () => {
    const dir = project('reload', { 'cantrip.json': JSON.stringify({ breeds: 'b.json' }), 'b.json': BREEDS, 's.spell': '' });
    const cache = new ProjectCache(io);
    const first = cache.projectOf(join(dir, 's.spell'));
    expect(cache.projectOf(join(dir, 's.spell'))).toEqual({ project: first.project, reloaded: false });
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ breeds: [{ name: 'Troll', attributes: { mana: 9 } }] }));
    const second = cache.projectOf(join(dir, 's.spell'));
    expect(second.reloaded).toBe(true);
    expect(second.project.breeds?.entityPropertyNames()).toContain('mana');
  });
});
