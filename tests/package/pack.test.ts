/**
 * What `npm install cantrip-lang` gets: the library, its types, the CLI, the docs
 * and the example spells — checked on the real `npm pack --dry-run` file list
 * (after `npm run build`, which `npm test` runs first).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_NAME } from '../../bin/package-info.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface PackFile {
  readonly path: string;
}

let files: string[] = [];

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  // --ignore-scripts: the test checks the list, it does not need prepack to rebuild.
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const report = JSON.parse(out.slice(out.indexOf('['))) as { files: PackFile[] }[];
  files = report[0]!.files.map((f) => f.path).sort();
}, 120_000);

describe('the npm package', () => {
  it('has the library, its types, the CLI, the docs, the spells and a LICENSE', () => {
    for (const needed of ['dist/index.js', 'dist/index.d.ts', 'dist/bin/bundle/manifest.json', 'bin/cantrip.js', 'LICENSE', 'README.md', 'package.json']) {
      expect(files).toContain(needed);
    }
    // The CLI is its bundle alone (bin/cantrip.js starts it); the ES modules of dist/bin/ it is built from would be
    // the same code twice (0.2 MB), but for package-info.js, which the server entry reads the package's name from.
    expect(files.filter((f) => /^dist\/bin\/[^/]+(\/.*)?\.js$/.test(f) && !f.startsWith('dist/bin/bundle/'))).toEqual(['dist/bin/package-info.js']);
    expect(files.some((f) => /^dist\/bin\/bundle\/cli-.+\.cjs$/.test(f))).toBe(true);
    expect(files).toContain('docs/embedding.md');
    expect(files).toContain('docs/runtime.md');
    expect(files).toContain('dist/docs/examples/embed.js');
    expect(files).toContain('spells/scenarios/trolls.json');
    expect(files.some((f) => f.startsWith('dist/runtime/') && f.endsWith('.d.ts'))).toBe(true);
    // The browser page `cantrip serve` serves.
    expect(files).toContain('dist/serve-page/index.html');
    expect(files.some((f) => /^dist\/serve-page\/assets\/.+\.js$/.test(f))).toBe(true);
  });

  it('has nothing else: no benchmarks, tests, playground, source maps, screenshots or TypeScript sources outside the docs', () => {
    const unwanted = files.filter(
      (f) =>
        /^dist\/(bench|tests|playground)\//.test(f) ||
        // The docs' screenshots (0.26 MB) show on GitHub; npm's page cannot resolve a relative image without a
        // repository field, and an installed package's docs read the same without them (each has its alt text).
        f.endsWith('.png') ||
        // Build-time tools (the interpreter's and the docs' generators) and declarations no exported type reaches: the
        // `exports` map lets a user import only `.` and `./server`, so the CLI's and the generators' are dead weight.
        /^dist\/(vm\/generator\/write-interpreter|vm\/gen-opcode-doc|runtime\/.*-doc)\./.test(f) ||
        /^dist\/(bin|vm\/generated|docs)\/.*\.d\.ts$/.test(f) ||
        /\.test(-helper)?\.(ts|js|d\.ts)$/.test(f) ||
        f.endsWith('.map') ||
        (f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'docs/examples/embed.ts'),
    );
    expect(unwanted).toEqual([]);
  });

  it('every relative import of a shipped module is shipped too', () => {
    const shipped = new Set(files);
    const missing: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.\.?\/[^']+)'/g)) {
        let target = normalize(join(dirname(file), m[1]!)).replace(/\\/g, '/');
        if (file.endsWith('.d.ts')) target = target.replace(/\.js$/, '.d.ts');
        if (!shipped.has(target)) missing.push(`${file} → ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is named cantrip-lang (`cantrip` on npm is an unrelated package) and keeps the `cantrip` command', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
    expect(pkg.name).toBe('cantrip-lang');
    expect(PACKAGE_NAME).toBe(pkg.name);
    expect(Object.keys(pkg.bin)).toEqual(['cantrip']);
  });

  it('package.json points at shipped files and has no install-time scripts', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      main: string;
      types: string;
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    const shipped = new Set(files);
    expect(shipped.has(normalize(pkg.main))).toBe(true);
    expect(shipped.has(normalize(pkg.types))).toBe(true);
    for (const bin of Object.values(pkg.bin)) expect(shipped.has(normalize(bin))).toBe(true);
    // prepare / install hooks run (and npm warns about them) on every install of the package.
    for (const hook of ['prepare', 'preinstall', 'install', 'postinstall']) expect(pkg.scripts[hook]).toBeUndefined();
    expect(pkg.scripts['prepack']).toMatch(/build/);
  });
});
