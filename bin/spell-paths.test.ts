import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir.test-helper.js';
import { expandSpellPaths } from './spell-paths.js';

function tree(files: string[]): string {
  const dir = tempDir('cantrip-paths-');
  for (const name of files) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), '');
  }
  return dir;
}

describe('expandSpellPaths', () => {
  it("walks a folder in name order, depth first, taking .spell files only, not node_modules' or dot-folders', nor dot-files", () => {
    const dir = tree(['b.spell', 'a/z.spell', 'a/y/x.spell', 'c.spb', 'notes.md', 'node_modules/p/d.spell', '.git/e.spell', 'a/.hidden/f.spell', '.g.spell']);
    expect(expandSpellPaths([dir])).toEqual({ files: ['a/y/x.spell', 'a/z.spell', 'b.spell'].map((f) => join(dir, f)), problems: [] });
  });

  it('keeps files named as they are (missing ones included, for the reader to report), each once', () => {
    const dir = tree(['a.spell', 'b.txt']);
    const named = [join(dir, 'b.txt'), join(dir, 'missing.spell'), join(dir, 'a.spell')];
    expect(expandSpellPaths([...named, dir, join(dir, 'b.txt')]).files).toEqual(named);
  });

  it('takes links to files, and does not follow links to folders (a cycle would never end)', () => {
    const dir = tree(['real/a.spell']);
    symlinkSync(join(dir, 'real/a.spell'), join(dir, 'real/link.spell'));
    symlinkSync(dir, join(dir, 'real/up'), 'dir');
    symlinkSync(join(dir, 'nowhere.spell'), join(dir, 'real/broken.spell'));
    expect(expandSpellPaths([join(dir, 'real')]).files).toEqual([join(dir, 'real/a.spell'), join(dir, 'real/link.spell')]);
  });

  it('reports a folder with no spell file in it', () => {
    const dir = tree(['docs/readme.md']);
    expect(expandSpellPaths([join(dir, 'docs')])).toEqual({ files: [], problems: [{ path: join(dir, 'docs'), message: `cantrip: no .spell files in '${join(dir, 'docs')}'` }] });
  });

  // Root reads any folder whatever its mode, so the check means nothing there.
  it.skipIf(process.getuid?.() === 0)('reports a subfolder it cannot read and goes on with the rest', () => {
    const dir = tree(['a.spell', 'locked/b.spell']);
    chmodSync(join(dir, 'locked'), 0o000);
    try {
      expect(expandSpellPaths([dir])).toEqual({
        files: [join(dir, 'a.spell')],
        problems: [{ path: join(dir, 'locked'), message: `cantrip: cannot read the folder '${join(dir, 'locked')}': permission denied` }],
      });
    } finally {
      chmodSync(join(dir, 'locked'), 0o755);
    }
  });
});
