/**
 * `cantrip serve` as a user runs it (the built CLI): --ticks writes the
 * summary and exits 0; every mistake is a sentence and an exit code, never a
 * stack trace — a port in use included.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../server/throwaway-redis.js';
import type { ServeSummary } from '../../server/serve-options.js';
import { tempDir } from '../../tests/temp-dir.test-helper.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const ZONES = join(ROOT, 'spells/scenarios/zones.json');

function cantrip(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/cantrip.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const noStackTrace = (text: string): void => expect(text).not.toMatch(/\n\s+at /);

describe('cantrip serve', () => {
  it('--ticks T --summary FILE steps every zone T times, writes the summary and exits 0', async () => {
    const dir = tempDir('cantrip-serve-cli-');
    const summaryFile = join(dir, 'summary.json');
    const r = cantrip('serve', ZONES, '--zones', '2x2', '--port', String(await freePort()), '--ticks', '60', '--summary', summaryFile);
    expect(r.status).toBe(0);
    noStackTrace(r.stderr);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as ServeSummary;
    expect(summary.zones.map((z) => [z.id, z.tick])).toEqual([
      ['z0-0', 60],
      ['z1-0', 60],
      ['z0-1', 60],
      ['z1-1', 60],
    ]);
    const names = summary.zones.flatMap((z) => z.entities);
    expect(new Set(names).size).toBe(40);
    expect(names).toHaveLength(40);
    // Every wanderer's two-second journey (40 steps) ends once, in whichever zone it is.
    expect(summary.events['print']).toBe(40);
    expect(summary.recovered).toBe(0);
    expect(typeof summary.handovers).toBe('number');
  });

  it('says so when the port is in use (exit 69); a --ticks run binds no port', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, resolve));
    try {
      const r = cantrip('serve', ZONES, '--port', String(port));
      expect(r.status).toBe(69);
      expect(r.stderr).toBe(`cantrip: Port ${port} is in use: stop what runs there, or pass another with --port.\n`);
      const headless = cantrip('serve', ZONES, '--port', String(port), '--ticks', '1', '--summary', join(tempDir('cantrip-serve-ticks-'), 'summary.json'));
      expect(headless.status, headless.stderr).toBe(0);
      expect(headless.stderr).toContain('no port (a --ticks run)');
    } finally {
      holder.close();
    }
  });

  it('drains on SIGTERM: one line, exit 0', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/cantrip.js'), 'serve', ZONES, '--zones', '2x1', '--port', String(await freePort())], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 300 && !stderr.includes('on port'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('cantrip serve: stopped on SIGTERM: 2 zones, 40 entities (nothing is saved without --redis).');
  });

  it('refuses bad options and bad scenarios with a sentence and the right exit code', () => {
    const dir = tempDir('cantrip-serve-bad-');
    const cases: [string[], number, string][] = [
      [['--zones', '3by2'], 64, "--zones must be columns x rows, such as 3x2 (at most 1024 zones), not '3by2'."],
      [['--ticks', '5'], 64, '--ticks and --summary go together'],
      [['--processes', '2'], 64, '--processes needs --redis URL'],
      [['--zones', '2x1', '--processes', '3', '--redis', 'redis://127.0.0.1:1'], 64, '3 processes for 2 zones'],
      [['--port', 'eighty'], 64, 'port must be a whole number from 0 to 65535.'],
      [['--redis', 'redis://127.0.0.1:1', '--ticks', '1', '--summary', join(dir, 's.json')], 69, 'Redis at redis://127.0.0.1:1 cannot be reached'],
    ];
    for (const [args, status, message] of cases) {
      const r = cantrip('serve', ZONES, ...args);
      expect(r.status, args.join(' ')).toBe(status);
      expect(r.stderr, args.join(' ')).toContain(message);
      noStackTrace(r.stderr);
    }
    const missing = cantrip('serve', join(dir, 'nowhere.json'));
    expect(missing.status).toBe(66);
    noStackTrace(missing.stderr);
    const scenario = JSON.parse(readFileSync(ZONES, 'utf8')) as Record<string, unknown>;
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...scenario, breeds: join(ROOT, 'spells/zone-breeds.json'), spells: [join(ROOT, 'spells/wanderers.spell')], players: { breeds: ['Dragon'] } }));
    const r = cantrip('serve', bad, '--ticks', '1', '--summary', join(dir, 's.json'));
    expect(r.status).toBe(65);
    expect(r.stderr).toContain(`cantrip: ${bad}: players.breeds names "Dragon", which is not a breed of`);
    noStackTrace(r.stderr);
  });

  it("--hosts MODULE serves the game's host functions; --api FILE alone declares them; neither: exit 65 naming each call", async () => {
    const dir = tempDir('cantrip-serve-hosts-');
    writeFileSync(join(dir, 'game.spell'), 'spell reward(caster, target) {\n  say(caster, "purse " + str(giveGold(caster, 5)));\n}\n');
    writeFileSync(join(dir, 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Priest', health: 10, speed: 0, interest: 4 }] }));
    const scenario = join(dir, 'world.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        breeds: 'breeds.json',
        spells: ['game.spell'],
        world: { width: 20, height: 10 },
        entities: [{ name: 'abbot', breed: 'Priest', x: 15, y: 5 }],
        casts: [{ tick: 2, spell: 'reward', caster: 'abbot' }],
      }),
    );
    const hosts = join(dir, 'hosts.mjs');
    writeFileSync(hosts, "export default [{ name: 'giveGold', params: [{ name: 'target', type: 'entity' }, { name: 'amount', type: 'number' }], returns: 'number', doc: 'Gold.', impl: (_ctx, _t, n) => n * 2 }];\n");
    const run = (...args: string[]) => {
      const summaryFile = join(dir, `summary-${args.length}.json`);
      const r = cantrip('serve', scenario, '--zones', '2x1', '--ticks', '5', '--summary', summaryFile, ...args);
      noStackTrace(r.stderr);
      return { ...r, summary: r.status === 0 ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as ServeSummary) : null };
    };
    const served = run('--hosts', hosts);
    expect(served.status, served.stderr).toBe(0);
    expect(served.summary!.events).toMatchObject({ say: 1 });
    expect(served.summary!.events['cast-error']).toBeUndefined();

    const declared = run('--api', join(ROOT, 'spells/game-api.json'));
    expect(declared.status, declared.stderr).toBe(0);
    expect(declared.summary!.events).toMatchObject({ 'cast-error': 1 });
    expect(declared.summary!.events['say']).toBeUndefined();

    const missing = run();
    expect(missing.status).toBe(65);
    expect(missing.stderr).toContain(`${join(dir, 'game.spell')}:2:30: warning: Undefined variable 'giveGold'.`);
    expect(missing.stderr).toContain("note: 'giveGold' is not a built-in and not declared in the spell. If it is one of your game's host functions, serve with --hosts MODULE");
    expect(missing.stderr).toContain(`cantrip: ${scenario}: not run: its spells call names nothing defines`);

    writeFileSync(join(dir, 'bad-hosts.mjs'), 'export const giveGold = 1;\n');
    const bad = run('--hosts', join(dir, 'bad-hosts.mjs'));
    expect(bad.status).toBe(65);
    expect(bad.stderr).toContain('must have a default export that is the list of host functions');
    const absent = run('--hosts', join(dir, 'nowhere.mjs'));
    expect(absent.status).toBe(66);
    expect(absent.stderr).toContain('nowhere.mjs: no such file.');
  });
});
