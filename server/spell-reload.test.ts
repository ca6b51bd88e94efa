/**
 * Live spell reload across the server: `serveWorld(...).reload(source)` in
 * one process, and `cantrip serve --watch --processes 2` where a spell file
 * edited on disk reaches the zones of both worker processes — players in
 * each hear the new words at their next cast; a file that does not compile
 * changes nothing anywhere (and says why).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Room } from '@colyseus/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { SpellsCompileError } from '../runtime/errors.js';
import type { Scenario } from '../runtime/scenario/scenario.js';
import { stopServe } from '../tests/e2e/cantrip-serve.js';
import { tempDir } from '../tests/temp-dir.test-helper.js';
import { MESSAGE, type ClientWorldEvent, type WelcomeMessage } from './protocol.js';
import { Inbox } from './room-inbox.test-helper.js';
import { serveWorld } from './serve-world.js';
import { freePort, startRedis, type TestRedis } from './throwaway-redis.js';

const ROOT = new URL('..', import.meta.url).pathname;
const chant = (words: string): string => `spell chant(caster, target) {\n  say(caster, "${words}");\n}\n`;

function writeWorld(dir: string): string {
  writeFileSync(join(dir, 'chant.spell'), chant('old words'));
  writeFileSync(join(dir, 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Pilgrim', health: 40, speed: 4, interest: 10 }] }));
  const scenario = join(dir, 'world.json');
  writeFileSync(scenario, JSON.stringify({ breeds: 'breeds.json', spells: ['chant.spell'], world: { width: 40, height: 20, step: 0.05 }, players: { breeds: ['Pilgrim'] } }));
  return scenario;
}

async function player(port: number, zone: string, x: number): Promise<{ room: Room; inbox: Inbox }> {
  const room = await new Client(`http://localhost:${port}`).joinById(zone, { x, y: 10, compact: true });
  const inbox = new Inbox(room);
  await inbox.wait<WelcomeMessage>(MESSAGE.welcome);
  return { room, inbox };
}

/** Cast chant until the player hears `words` (a reload reaches a process a moment after it is said). */
async function hears(p: { room: Room; inbox: Inbox }, words: string): Promise<void> {
  const heard = (): boolean => p.inbox.all.some((m) => m.type === MESSAGE.events && (m.message as ClientWorldEvent[]).some((e) => e.type === 'say' && e['text'] === words));
  for (let i = 0; i < 80 && !heard(); i++) {
    p.room.send(MESSAGE.cast, { spell: 'chant' });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(heard(), `heard "${words}"`).toBe(true);
}

describe('serveWorld(...).reload', () => {
  it('reloads a spell file in every zone; a source that does not compile changes nothing', async () => {
    const dir = tempDir('cantrip-reload-');
    const scenario = JSON.parse(readFileSync(writeWorld(dir), 'utf8')) as Scenario;
    const served = await serveWorld({ scenario, baseDir: dir, zones: '2x1', port: await freePort(), log: () => {} });
    try {
      const west = await player(served.port, 'z0-0', 5);
      const east = await player(served.port, 'z1-0', 35);
      await hears(west, 'old words');
      expect(served.reload(chant('new words'))).toMatchObject({ reloaded: true, changed: ['chant'], added: [], removed: [] });
      await hears(west, 'new words');
      await hears(east, 'new words');
      expect(() => served.reload('spell chant(caster, target) { say(caster, "broken" }')).toThrow(SpellsCompileError);
      expect(() => served.reload(chant('x'), 'other.spell')).toThrow('other.spell is not a spell file of the scenario');
      east.inbox.all.length = 0;
      await hears(east, 'new words');
      void west.room.leave().catch(() => {});
      void east.room.leave().catch(() => {});
    } finally {
      await served.close();
    }
  });
});

describe('cantrip serve --watch --processes 2', () => {
  let redis: TestRedis | null = null;
  let server: ChildProcess | null = null;

  afterAll(async () => {
    await stopServe(server ?? undefined);
    await redis?.stop();
  });

  it('a spell file edited on disk reaches the zones of both processes; one that does not compile changes nothing', async () => {
    redis = await startRedis();
    if (redis === null) return;
    const dir = tempDir('cantrip-watch-');
    const scenario = writeWorld(dir);
    const port = await freePort();
    server = spawn(process.execPath, [join(ROOT, 'bin/cantrip.js'), 'serve', scenario, '--zones', '2x1', '--processes', '2', '--redis', redis.url, '--port', String(port), '--watch'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; i < 600 && !stderr.includes('players on ports'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const west = await player(port, 'z0-0', 5);
    const east = await player(port, 'z1-0', 35);
    await hears(west, 'old words');

    writeFileSync(join(dir, 'chant.spell'), chant('new words'));
    await hears(west, 'new words');
    await hears(east, 'new words');
    expect(stderr).toContain(`cantrip serve: reloaded ${join(dir, 'chant.spell')} in 2 processes: changed chant.`);

    writeFileSync(join(dir, 'chant.spell'), 'spell chant(caster, target) { say(caster, "broken" }\n');
    for (let i = 0; i < 300 && !stderr.includes('was not reloaded'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toContain(`cantrip serve: ${join(dir, 'chant.spell')} changed but was not reloaded, nothing changed anywhere: ${join(dir, 'chant.spell')} does not compile (1 error):`);
    west.inbox.all.length = 0;
    east.inbox.all.length = 0;
    await hears(west, 'new words');
    await hears(east, 'new words');
    void west.room.leave().catch(() => {});
    void east.room.leave().catch(() => {});
  }, 60_000);
});
