/**
 * The real `cantrip serve` for the browser page's end-to-end tests: a small
 * scenario written to a folder, the built CLI (dist/, as `npm test` leaves
 * it) started on it, and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './browser.js';

const root = repoRoot();

/** Fail with what to do when the CLI or the page is not built. */
export function needBuild(): void {
  for (const built of ['dist/bin/cli.js', 'dist/serve-page/index.html']) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`);
  }
}

/**
 * A 40×20 world (two 20×20 zones with --zones 2x1), players as Pilgrims
 * (interest 10, speed 4), one standing Pilgrim at (6, 10) to cast on, and a
 * spell `fizzle` that fails at run time. Returns the scenario file.
 */
export function writePageScenario(dir: string): string {
  writeFileSync(join(dir, 'page-test.spell'), '// A cast that fails in the world: the caster gets its cast-error.\nspell fizzle(caster, target) {\n  var nothing = nil;\n  print nothing + 1;\n}\n');
  const scenario = {
    description: 'The browser page test: two zones, a statue.',
    breeds: join(root, 'spells', 'zone-breeds.json'),
    spells: [join(root, 'spells', 'wanderers.spell'), join(dir, 'page-test.spell')],
    world: { width: 40, height: 20, partition: 'grid', cellSize: 4, capacity: 64, step: 0.05 },
    seed: 3,
    entities: [{ name: 'statue', breed: 'Pilgrim', x: 6, y: 10 }],
    players: { breeds: ['Pilgrim'], spawn: { x: 10, y: 10 } },
  };
  const file = join(dir, 'page-test.json');
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

/** `cantrip serve SCENARIO --port P ARGS…`, resolved once it says where it serves. */
export async function startServe(scenario: string, port: number, args: readonly string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(root, 'bin', 'cantrip.js'), 'serve', scenario, '--port', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/on port \d+/.test(stderr)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`cantrip serve exited (${code}) before serving:\n${stderr}`)));
  });
  return child;
}

/** Stop a server startServe started (SIGTERM: it stops its workers too), and wait until it is gone. */
export async function stopServe(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
