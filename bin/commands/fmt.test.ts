import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli.js';
import type { CliIO } from '../io.js';
import { tempDir } from '../../tests/temp-dir.test-helper.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await main(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

const MESSY = 'spell zap(caster,target){damage(target,1);}\n';
const TIDY = 'spell zap(caster, target) {\n  damage(target, 1);\n}\n';
const BROKEN = 'print 1\nprint 2;\n';

/** Files (names may hold folders) in a fresh folder; a function from a name to its path. */
function workspace(files: Record<string, string>): (name: string) => string {
  const dir = tempDir('cantrip-fmt-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return (name) => join(dir, name);
}

describe('cantrip fmt', () => {
  it('prints the formatted text without a flag, changing nothing', async () => {
    const path = workspace({ 'a.spell': MESSY });
    expect(await run('fmt', path('a.spell'))).toEqual({ code: 0, out: TIDY, err: '' });
    expect(readFileSync(path('a.spell'), 'utf8')).toBe(MESSY);
  });

  it('--check lists the files that would change and exits 1; 0 when all are formatted', async () => {
    const path = workspace({ 'a.spell': MESSY, 'b.spell': TIDY });
    expect(await run('fmt', '--check', path('a.spell'), path('b.spell'))).toEqual({ code: 1, out: path('a.spell') + '\n', err: '2 files checked, 1 would change\n' });
    expect(await run('fmt', '--check', path('b.spell'))).toEqual({ code: 0, out: '', err: '1 file checked, 0 would change\n' });
    expect(readFileSync(path('a.spell'), 'utf8')).toBe(MESSY);
  });

  it('--write rewrites the files that change and lists them', async () => {
    const path = workspace({ 'a.spell': MESSY, 'b.spell': TIDY });
    expect(await run('fmt', '--write', path('a.spell'), path('b.spell'))).toEqual({ code: 0, out: path('a.spell') + '\n', err: '2 files checked, 1 reformatted\n' });
    expect(readFileSync(path('a.spell'), 'utf8')).toBe(TIDY);
    expect(await run('fmt', '--check', path('a.spell'))).toEqual({ code: 0, out: '', err: '1 file checked, 0 would change\n' });
  });

  it('--indent sets the indentation width, and refuses anything but 1 to 16', async () => {
    const path = workspace({ 'a.spell': MESSY });
    expect((await run('fmt', '--indent', '4', path('a.spell'))).out).toBe(TIDY.replace('  damage', '    damage'));
    for (const bad of ['0', '17', 'two', '2.5']) {
      const result = await run('fmt', '--indent', bad, path('a.spell'));
      expect(result.code, bad).toBe(64);
      expect(result.err).toMatch(/from 1 to 16/);
    }
  });

  it('reports a file with syntax errors as code frames on stderr, exit 65, and still formats the others', async () => {
    const path = workspace({ 'bad.spell': BROKEN, 'a.spell': MESSY });
    const result = await run('fmt', '--write', path('bad.spell'), path('a.spell'));
    expect(result.code).toBe(65);
    expect(result.err).toContain(`${path('bad.spell')}:1:8: error: Expect ';' after value.\n 1 | print 1\n   |        ^`);
    expect(result.out).toBe(path('a.spell') + '\n');
    expect(result.err).toMatch(/\n2 files checked, 1 reformatted, 1 could not be formatted\n$/);
    expect(readFileSync(path('bad.spell'), 'utf8')).toBe(BROKEN);
    expect(readFileSync(path('a.spell'), 'utf8')).toBe(TIDY);
  });

  it('exits 66 for a file it cannot read, after formatting the rest', async () => {
    const path = workspace({ 'a.spell': TIDY, 'bad.spell': BROKEN });
    const result = await run('fmt', path('missing.spell'), path('bad.spell'), path('a.spell'));
    expect(result.code).toBe(66);
    expect(result.err).toContain(`cannot read '${path('missing.spell')}': no such file or directory`);
    expect(result.out).toBe(TIDY);
  });

  it('refuses --check with --write, and bytecode files', async () => {
    const path = workspace({ 'a.spell': TIDY, 'a.spb': '' });
    expect((await run('fmt', '--check', '--write', path('a.spell'))).code).toBe(64);
    writeFileSync(path('a.spb'), readFileSync(new URL('../../spells/hello.spell', import.meta.url)));
    await run('compile', path('a.spell'), '-o', path('a.spb'));
    const result = await run('fmt', path('a.spb'));
    expect(result.code).toBe(65);
    expect(result.err).toContain('is compiled bytecode');
  });

  it('exits 73 when a file cannot be written', async () => {
    const path = workspace({ 'a.spell': MESSY });
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIO = {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      writeFile: () => {
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      },
    };
    expect(await main(['fmt', '--write', path('a.spell')], io)).toBe(73);
    expect(err.join('')).toContain(`cannot write '${path('a.spell')}': permission denied`);
  });

  describe('on folders', () => {
    const project = () =>
      workspace({
        'spells/a.spell': MESSY,
        'spells/b.spell': TIDY,
        'spells/fire/c.spell': MESSY,
        'spells/notes.txt': 'not a spell',
        'spells/node_modules/lib/d.spell': MESSY,
        'spells/.cache/e.spell': MESSY,
      });

    it('--check walks the folder, skipping node_modules and dot-folders, and sums up', async () => {
      const path = project();
      expect(await run('fmt', '--check', path('spells'))).toEqual({
        code: 1,
        out: `${path('spells/a.spell')}\n${path('spells/fire/c.spell')}\n`,
        err: '3 files checked, 2 would change\n',
      });
    });

    it('--write reformats what --check listed, and then the folder checks clean', async () => {
      const path = project();
      const written = await run('fmt', '--write', path('spells') + '/');
      expect(written).toEqual({ code: 0, out: `${path('spells/a.spell')}\n${path('spells/fire/c.spell')}\n`, err: '3 files checked, 2 reformatted\n' });
      expect(readFileSync(path('spells/fire/c.spell'), 'utf8')).toBe(TIDY);
      expect(readFileSync(path('spells/node_modules/lib/d.spell'), 'utf8')).toBe(MESSY);
      expect(await run('fmt', '--check', path('spells'))).toEqual({ code: 0, out: '', err: '3 files checked, 0 would change\n' });
    });

    it('takes each file once when a file and its folder are both named', async () => {
      const path = project();
      expect((await run('fmt', '--check', path('spells/a.spell'), path('spells'))).err).toBe('3 files checked, 2 would change\n');
    });

    it('exits 66 for a folder with no .spell file in it, after formatting the rest', async () => {
      const path = workspace({ 'empty/notes.txt': '', 'a.spell': MESSY });
      const result = await run('fmt', '--check', path('empty'), path('a.spell'));
      expect(result).toEqual({ code: 66, out: path('a.spell') + '\n', err: `cantrip: no .spell files in '${path('empty')}'\n1 file checked, 1 would change\n` });
    });
  });
});
