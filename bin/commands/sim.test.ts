import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliFailure } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { simulate } from './simulate.js';
import { tempDir } from '../../tests/temp-dir.test-helper.js';

function capture(): { io: CliIO; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t) }, out, err };
}

const TROLLS = new URL('../../spells/scenarios/trolls.json', import.meta.url).pathname;

async function failure(body: () => Promise<unknown>): Promise<CliFailure> {
  try {
    await body();
  } catch (e) {
    if (e instanceof CliFailure) return e;
    throw e;
  }
  throw new Error('expected a CliFailure');
}

describe('cantrip sim', () => {
  it('prints one line per event', async () => {
    const { io, out } = capture();
    expect(await simulate(TROLLS, { ticks: 10 }, io)).toBe(0);
    const text = out.join('');
    expect(text).toContain('[tick 0] Wizard#1 spawns at (10, 10)');
    expect(text).toContain('[tick 1] Wizard#1 casts fireball on Troll#2');
    expect(text).toContain('Troll Archer#3 enters the range of Troll#2');
    expect(text).toContain('Troll Archer#3 dies');
    expect(text).not.toContain('[tick 11]');
  });

  it('keeps naming an entity in the lines that follow its death', async () => {
    const { io, out } = capture();
    await simulate(TROLLS, { ticks: 40 }, io);
    const text = out.join('');
    expect(text).toContain('[tick 6] Troll Archer#3 leaves the range of Troll#2');
    expect(text).not.toMatch(/ #\d/);
  });

  it('shows a waiting cast cancelled because its caster died, in text and in JSON', async () => {
    const dir = tempDir('cantrip-sim-');
    writeFileSync(join(dir, 'b.json'), '{ "breeds": [{ "name": "Wizard", "health": 5 }, { "name": "Troll", "health": 30 }] }');
    writeFileSync(join(dir, 's.spell'), 'spell channel(self, t) { wait(1); damage(t, 10); }\nspell smash(self, t) { damage(t, 99); }');
    const scenario = join(dir, 'sc.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        breeds: 'b.json',
        spells: ['s.spell'],
        world: { width: 10, height: 10 },
        entities: [
          { name: 'hero', breed: 'Wizard', x: 1, y: 1 },
          { name: 'troll', breed: 'Troll', x: 2, y: 1 },
        ],
        casts: [
          { tick: 1, spell: 'channel', caster: 'hero', target: 'troll' },
          { tick: 3, spell: 'smash', caster: 'troll', target: 'hero' },
          { tick: 4, spell: 'channel', caster: 'hero', target: 'troll' },
        ],
        ticks: 20,
      }),
    );
    const text = capture();
    await simulate(scenario, {}, text.io);
    expect(text.out.join('')).toContain(
      '[tick 3] Wizard#1 takes 5 damage (health 0) from Troll#2\n[tick 3] channel (cast by Wizard#1) is cancelled: Its caster died.\n[tick 3] Wizard#1 dies\n',
    );
    // A cast the scenario schedules for a caster already dead is skipped, and says whose it was.
    expect(text.out.join('')).toContain('[tick 4] channel (cast by Wizard#1) failed: Skipped: the caster or target is gone.\n');
    const json = capture();
    await simulate(scenario, { json: true }, json.io);
    const events = json.out.join('').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'cast-cancelled')).toEqual([
      { type: 'cast-cancelled', tick: 3, id: '1:1', spell: 'channel', caster: 1, reason: 'caster-gone', message: 'Its caster died.' },
    ]);
    expect(events.some((e) => e.type === 'damage' && (e as { entity?: number }).entity === 2)).toBe(false);
  });

  it('a failing output is its own error, not a bad scenario (exit 65)', async () => {
    const broken = new Error('write EPIPE');
    const io: CliIO = {
      stdout: () => {
        throw broken;
      },
      stderr: () => {},
    };
    await expect(simulate(TROLLS, { ticks: 2 }, io)).rejects.toThrow(broken);
  });

  it('prints JSON lines with --json', async () => {
    const { io, out } = capture();
    await simulate(TROLLS, { ticks: 3, json: true }, io);
    const events = out.join('').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events[0]).toMatchObject({ type: 'spawn', entity: 1, breed: 'Wizard' });
    expect(events.some((e) => e.type === 'damage')).toBe(true);
  });

  it('fails cleanly on bad scenarios and missing files', async () => {
    const dir = tempDir('cantrip-sim-');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "breeds": "b.json", "spells": [], "world": { "width": 10 } }');
    expect(await failure(() => simulate(bad, {}, capture().io))).toMatchObject({ exitCode: 65, message: `cantrip: ${bad}: 'world' needs 'height'.` });
    writeFileSync(bad, '{ "breeds": ');
    expect((await failure(() => simulate(bad, {}, capture().io))).message).toMatch(/line 1, column 13/);
    writeFileSync(bad, '{ "breeds": "nope.json", "spells": [], "world": { "width": 10, "height": 10 } }');
    expect((await failure(() => simulate(bad, {}, capture().io))).exitCode).toBe(66);
    expect((await failure(() => simulate(join(dir, 'missing.json'), {}, capture().io))).exitCode).toBe(66);
    writeFileSync(join(dir, 'b.json'), '{ "breeds": [{ "name": "A", "parent": "A" }] }');
    writeFileSync(bad, '{ "breeds": "b.json", "spells": [], "world": { "width": 10, "height": 10 } }');
    expect((await failure(() => simulate(bad, {}, capture().io))).message).toBe(
      `cantrip: ${join(dir, 'b.json')}: Breed 'A': field 'parent' makes an inheritance cycle: A → A.`,
    );
  });

  it('names the file at fault: the scenario, the breeds file, every compile error of a spell file, a bad .spb', async () => {
    const dir = tempDir('cantrip-sim-');
    const scenario = join(dir, 'sc.json');
    writeFileSync(join(dir, 'b.json'), '{ "breeds": [{ "name": "A" }] }');
    writeFileSync(join(dir, 'broken.spell'), 'var a = 1;\nprint a +;\nfun f( {\n');
    writeFileSync(scenario, '{ "breeds": "b.json", "spells": ["broken.spell"], "world": { "width": 10, "height": 10 } }');
    const spell = join(dir, 'broken.spell');
    expect((await failure(() => simulate(scenario, {}, capture().io))).message).toBe(
      `cantrip: the spells in ${spell} do not compile:\n` +
        `${spell}:2:10: error: Expect expression.\n` +
        `${spell}:3:8: error: Expect ')' after parameters.`,
    );
    writeFileSync(join(dir, 'bad.spb'), 'CNTP\x1a\n\x01\x00\x01\x7f');
    writeFileSync(scenario, '{ "breeds": "b.json", "spells": ["bad.spb"], "world": { "width": 10, "height": 10 } }');
    expect(await failure(() => simulate(scenario, {}, capture().io))).toMatchObject({
      exitCode: 65,
      message: expect.stringMatching(new RegExp(`^cantrip: ${join(dir, 'bad.spb')} is not valid Cantrip bytecode: `)),
    });
    writeFileSync(scenario, '{ "breeds": "b.json", "spells": [], "world": { "width": 10, "height": 10 }, "casts": [{ "tick": 0, "spell": "nope" }] }');
    expect((await failure(() => simulate(scenario, {}, capture().io))).message).toBe(`cantrip: ${scenario}: cast at tick 0 names unknown spell 'nope'.`);
  });

  it('shows the files a scenario names relative to where cantrip runs, not to the scenario', async () => {
    const dir = tempDir('cantrip-sim-');
    const scenario = join(dir, 'scenarios', 'sc.json');
    mkdirSync(join(dir, 'scenarios'));
    writeFileSync(scenario, '{ "breeds": "../gone.json", "spells": [], "world": { "width": 10, "height": 10 } }');
    expect(await failure(() => simulate(scenario, {}, capture().io))).toMatchObject({
      exitCode: 66,
      message: `cantrip: cannot read '${join(dir, 'gone.json')}': no such file or directory`,
    });
  });

  it('registers without loading the world runtime, so other commands start fast', async () => {
    // Every command is registered at start-up; a static import here would load the runtime and the compiler for `--version`.
    const registration = readFileSync(new URL('./sim.ts', import.meta.url), 'utf8');
    expect(registration).not.toMatch(/^import .*runtime\//m);
    expect(registration).toContain("await import('./simulate.js')");
  });
});
