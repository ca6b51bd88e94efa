/**
 * `npm install cantrip-lang` as a new user runs it: the real tarball from
 * `npm pack`, installed by npm from the registry into an empty project
 * outside the repository (so nothing resolves from the repository's
 * node_modules). What it gets must fit someone who embeds the VM, checks
 * spells in CI or runs the language server:
 *
 * - at most 25 packages, at most 10 MB, no install scripts, no npm warning,
 *   with everything a publish ships — the VS Code extension's .vsix
 *   included, built afresh as `prepack` builds it;
 * - none of the zone server's packages (they are optional peer
 *   dependencies): `cantrip serve` says in one line which `npm install`
 *   brings them and exits 69, while check, run, compile, sim and the
 *   language server work;
 * - every type and function the docs name type-checks from it, under
 *   strict TypeScript, from an ES module and from CommonJS.
 *
 * Needs dist/ (`npm run build`) and the npm registry (`--prefer-offline`:
 * npm's cache answers what it can); builds dist/cantrip-vscode.vsix itself
 * (offline, seconds).
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL, documentedNames, importEveryName, root } from './documented-names.test-helper.js';

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const MAX_PACKAGES = 25;
const MAX_BYTES = 10_000_000;
/** The VS Code extension, in package.json's `files`: `prepack` builds it (`npm run vsix`) for a publish. */
const VSIX = 'dist/cantrip-vscode.vsix';

let work = '';
let game = '';
let install: SpawnSyncReturns<string>;
let packed: string[] = [];

function run(command: string, args: readonly string[], cwd = game, input?: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', input, timeout: 120_000 });
}

const cantrip = (...args: string[]): SpawnSyncReturns<string> => run(process.execPath, [join(game, 'node_modules', '.bin', 'cantrip'), ...args]);

/** Every installed package directory (nested ones included), relative to node_modules. */
function installedPackages(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      found.push(...installedPackages(path, `${prefix}${entry.name}/`));
      continue;
    }
    if (existsSync(join(path, 'package.json'))) found.push(prefix + entry.name);
    found.push(...installedPackages(join(path, 'node_modules'), `${prefix}${entry.name}/node_modules/`));
  }
  return found;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  work = mkdtempSync(join(tmpdir(), 'cantrip-install-'));
  // What prepack's `npm run vsix` makes, built from today's sources (a .vsix left in dist/ may be older). It is
  // written beside its place and renamed into it, so a `npm pack` running meanwhile sees the old file or the new.
  const building = join(root, 'dist', `.cantrip-vscode-${process.pid}.vsix`);
  const vsix = run(process.execPath, [join(root, 'editors/vscode/build.mjs'), '--no-generate', '--out', building], root);
  if (vsix.status !== 0) throw new Error(`npm run vsix failed:\n${vsix.stdout}${vsix.stderr}`);
  renameSync(building, join(root, VSIX));
  // --ignore-scripts: dist/ and the .vsix are built; prepack would only build them again.
  const pack = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root);
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const [{ filename, files }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  packed = files.map((f) => f.path);
  game = join(work, 'game');
  mkdirSync(game);
  writeFileSync(join(game, 'package.json'), JSON.stringify({ name: 'a-game', version: '1.0.0', private: true }, null, 2));
  install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, filename)]);
  if (install.status !== 0) throw new Error(`npm install of the packed tarball failed (it needs the npm registry):\n${install.stderr}`);
}, 300_000);

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

describe('npm install of the packed package, into an empty project', () => {
  it('is packed with what a publish ships: the VS Code extension included', () => {
    expect(packed).toContain(VSIX);
    expect(existsSync(join(game, 'node_modules', manifest.name, VSIX))).toBe(true);
  });

  it(`installs at most ${MAX_PACKAGES} packages and ${MAX_BYTES / 1e6} MB, with no install scripts and no npm warning`, () => {
    const warnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((line) => /\bnpm warn/i.test(line));
    expect(warnings).toEqual([]);
    const packages = installedPackages(join(game, 'node_modules'));
    expect(packages).toContain(manifest.name);
    expect(packages.length, packages.join(', ')).toBeLessThanOrEqual(MAX_PACKAGES);
    const bytes = bytesUnder(join(game, 'node_modules'));
    expect(bytes, `${packages.length} packages, ${(bytes / 1e6).toFixed(2)} MB`).toBeLessThanOrEqual(MAX_BYTES);
    const withScripts = packages.filter((name) => {
      const dir = join(game, 'node_modules', name);
      const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest).scripts ?? {};
      // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script of its own.
      return ['preinstall', 'install', 'postinstall'].some((hook) => scripts[hook] !== undefined) || existsSync(join(dir, 'binding.gyp'));
    });
    expect(withScripts).toEqual([]);
  });

  it('leaves out the zone server’s packages: optional peer dependencies, pinned in devDependencies', () => {
    const servers = Object.keys(manifest.peerDependencies);
    expect(servers).toEqual(expect.arrayContaining(['@colyseus/core', '@colyseus/ws-transport', 'ioredis', 'express']));
    for (const name of servers) {
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(existsSync(join(game, 'node_modules', name)), `${name} was installed`).toBe(false);
    }
  });

  it('`cantrip serve` says in one line which npm install brings them, and exits 69', () => {
    const r = cantrip('serve', join(game, 'node_modules', manifest.name, 'spells', 'scenarios', 'zones.json'));
    const command = `npm install ${Object.keys(manifest.peerDependencies)
      .map((name) => `${name}@${manifest.devDependencies[name]}`)
      .join(' ')}`;
    expect(r.stderr).toBe(
      `cantrip: serving needs the zone server's packages, which ${manifest.name} installs only on request: run \`${command}\` (missing: ${Object.keys(manifest.peerDependencies).join(', ')}).\n`,
    );
    expect(r.status).toBe(69);
  });

  it('check, run, compile and sim work without them', () => {
    const spells = join(game, 'node_modules', manifest.name, 'spells');
    writeFileSync(join(game, 'hello.spell'), 'print 1 + 2;\n');
    expect(cantrip('check', 'hello.spell', join(spells, 'fireball.spell'))).toMatchObject({ status: 0, stderr: '' });
    expect(cantrip('run', 'hello.spell')).toMatchObject({ status: 0, stdout: '3\n', stderr: '' });
    expect(cantrip('compile', 'hello.spell', '-o', 'hello.spb').status).toBe(0);
    expect(cantrip('run', 'hello.spb')).toMatchObject({ status: 0, stdout: '3\n' });
    const sim = cantrip('sim', join(spells, 'scenarios', 'trolls.json'), '--ticks', '5');
    expect(sim.stderr).toBe('');
    expect(sim.status).toBe(0);
  });

  it('the library and cantrip-lang/server load without them, from an ES module and from CommonJS', () => {
    const use = `
      const world = new library.World({ width: 5, height: 5 });
      world.loadBreeds({ breeds: [{ name: 'Imp' }] });
      console.log(JSON.stringify([typeof library.compile, world.spawn('Imp', 1, 1), server.MESSAGE.view, server.missingServerPackages().length > 0]));`;
    writeFileSync(join(game, 'load.mjs'), `import * as library from '${manifest.name}';
import * as server from '${manifest.name}/server';
${use}`);
    writeFileSync(join(game, 'load.cjs'), `const library = require('${manifest.name}');
const server = require('${manifest.name}/server');
${use}`);
    for (const file of ['load.mjs', 'load.cjs']) {
      const r = run(process.execPath, [file]);
      expect(r.stderr, file).toBe('');
      expect(JSON.parse(r.stdout), file).toEqual(['function', 1, 'view', true]);
    }
  });

  it('the language server answers `initialize` without them', async () => {
    const server = spawn(process.execPath, [join(game, 'node_modules', '.bin', 'cantrip'), 'lsp', '--stdio'], { cwd: game });
    const frame = (message: object): string => {
      const json = JSON.stringify({ jsonrpc: '2.0', ...message });
      return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
    };
    let stdout = '';
    let stderr = '';
    server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const answered = new Promise<void>((resolve, reject) => {
      server.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('"id":1')) resolve();
      });
      server.on('exit', (code) => reject(new Error(`the language server exited (${code}) before answering: ${stderr}`)));
    });
    server.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }));
    try {
      await answered;
    } finally {
      server.stdin.end(frame({ method: 'exit' }));
    }
    expect(stdout).toMatch(/"id":1,"result":\{"capabilities":/);
    expect(stderr).toBe('');
  });

  describe('every type and function the docs name', () => {
    const names = documentedNames();

    it('the docs name the types the issue found missing, and the server’s messages', () => {
      expect([...names.root.keys()]).toEqual(expect.arrayContaining(['RestoreOptions', 'World', 'HostFunction', 'worldHostFunction']));
      expect([...names.server.keys()]).toEqual(expect.arrayContaining(['ViewMessage', 'JoinOptions']));
    });

    it('the internal names the docs mention are still mentioned (else drop them from INTERNAL)', () => {
      expect([...names.internalMentioned].sort()).toEqual(Object.keys(INTERNAL).sort());
    });

    it('type-check from the installed package under strict TypeScript, from an ES module and from CommonJS (module nodenext)', () => {
      const source = importEveryName(names, manifest.name);
      for (const kind of ['module', 'commonjs'] as const) {
        const dir = join(game, `check-${kind}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `check-${kind}`, private: true, type: kind }));
        writeFileSync(join(dir, 'names.ts'), source);
        writeFileSync(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              exactOptionalPropertyTypes: true,
              noUncheckedIndexedAccess: true,
              target: 'ES2022',
              module: 'nodenext',
              moduleResolution: 'nodenext',
              noEmit: true,
              // No @types/node, nor any other package: the package's types stand on their own.
              types: [],
            },
            files: ['names.ts'],
          }),
        );
        const tsc = run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], dir);
        expect(`${tsc.stdout}${tsc.stderr}`, kind).toBe('');
        expect(tsc.status, kind).toBe(0);
      }
    });
  });
});
