/**
 * A CommonJS game (`npm init -y` makes `"type": "commonjs"`) that requires the
 * package: the real tarball from `npm pack`, unpacked into a game project's
 * node_modules as `npm install` does, then `require()`d and used to cast a
 * spell on a world. The package is ESM; `require` of it works on the Node
 * versions that load ES modules from `require` (20.19+, 22.12+) as long as
 * no module in it has a top-level `await`.
 *
 * The game project sits under the repository's .tmp/, so the package's own
 * dependencies (chevrotain, ajv …) resolve from the repository's
 * node_modules, as they would from the game's: no registry needed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageName = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name;

let game = '';

/** Compile a spell, cast it from a wizard on a troll, step the world: the troll's health before and after. */
const gameScript = (load: string): string => `
${load}
const world = new World({ width: 20, height: 20, seed: 1 });
world.loadSpells('spell zap(caster, target) { damage(target, 5); wait(0.1); damage(target, 1); }', 'zap.spell');
world.loadBreeds({ breeds: [{ name: 'Wizard', health: 10 }, { name: 'Troll', health: 30 }] });
const wizard = world.spawn('Wizard', 1, 1);
const troll = world.spawn('Troll', 2, 1);
const before = world.property(troll, 'health');
const cast = world.cast('zap', wizard, troll);
for (let i = 0; i < 10; i++) world.step();
console.log(JSON.stringify({ state: cast.state, before, after: world.property(troll, 'health') }));
`;

function runNode(file: string): string {
  return execFileSync(process.execPath, [file], { cwd: game, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const work = mkdtempSync(join(root, '.tmp', 'cjs-game-'));
  // --ignore-scripts: dist/ is already built; prepack would only rebuild it.
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  game = join(work, 'game');
  const installed = join(game, 'node_modules', packageName);
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, filename), '-C', installed, '--strip-components=1']);
  writeFileSync(join(game, 'package.json'), JSON.stringify({ name: 'cjs-game', version: '1.0.0', type: 'commonjs' }, null, 2));
}, 120_000);

afterAll(() => {
  if (game) rmSync(join(game, '..'), { recursive: true, force: true });
});

describe('the package in a CommonJS project', () => {
  it('require() loads it and a spell runs on a world', () => {
    writeFileSync(join(game, 'game.js'), gameScript(`const { World } = require(${JSON.stringify(packageName)});`));
    expect(JSON.parse(runNode('game.js'))).toEqual({ state: 'suspended', before: 30, after: 24 });
  });

  it('an ES module of the same project imports it too', () => {
    writeFileSync(join(game, 'game.mjs'), gameScript(`import { World } from ${JSON.stringify(packageName)};`));
    expect(JSON.parse(runNode('game.mjs'))).toEqual({ state: 'suspended', before: 30, after: 24 });
  });

  it('no library module the package ships has a top-level await (it would make require() fail)', () => {
    writeFileSync(
      join(game, 'every-module.js'),
      `const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const dist = join(__dirname, 'node_modules', ${JSON.stringify(packageName)}, 'dist');
// serve-page/ is the zone server's browser page, bundled for browsers.
const files = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.js') && !f.startsWith('bin') && !f.startsWith('serve-page') && !f.includes('.browser.'));
for (const f of files) require(join(dist, f));
console.log(files.length);`,
    );
    expect(Number(runNode('every-module.js'))).toBeGreaterThan(50);
  });
});
