/**
 * A served scenario's casts follow their caster across a border: a runner
 * with one cast due every tick crosses from z0-0 into z1-0 while the two
 * zones' ticks differ (the receiver ahead, then behind); every cast runs
 * exactly once, whichever zone runs it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir.test-helper.js';
import { LocalZoneBus } from './local-zone-bus.js';
import { MemoryOwnershipStore } from './memory-ownership-store.js';
import { servedScenario } from './served-scenario.js';
import { ZoneHost } from './zone-host.js';

const CASTS = 30;

function runnerScenario(dir: string) {
  writeFileSync(join(dir, 'run.spell'), 'spell run(self, dt) { setVelocity(self, 40, 0); }\nspell count(caster, target) { caster.count = caster.count + 1; }\n');
  writeFileSync(join(dir, 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Runner', health: 10, speed: 40, interest: 2, spells: { tick: 'run' }, attributes: { count: 0 } }] }));
  return servedScenario(
    {
      breeds: join(dir, 'breeds.json'),
      spells: [join(dir, 'run.spell')],
      world: { width: 40, height: 10, step: 0.05 },
      entities: [{ name: 'runner', breed: 'Runner', x: 12, y: 5 }],
      casts: Array.from({ length: CASTS }, (_, i) => ({ tick: i, spell: 'count', caster: 'runner' })),
    },
    { columns: 2, rows: 1 },
    { name: 'runner', hosts: [] },
  );
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function crossWith(lead: number): Promise<{ count: unknown; zone: string }> {
  const served = runnerScenario(tempDir('cantrip-casts-'));
  const host = new ZoneHost({ served, store: new MemoryOwnershipStore(), bus: new LocalZoneBus(), handoverTimeoutMs: 5000, saveEveryMs: 0, log: () => {} });
  const a = await host.addZone('z0-0', false);
  const b = await host.addZone('z1-0', false);
  // z1-0 runs `lead` ticks ahead of z0-0 (behind when negative).
  for (let i = 0; i < lead; i++) b.step();
  for (let i = 0; i < -lead; i++) a.step();
  for (let i = 0; i < CASTS + 40; i++) {
    a.step();
    b.step();
    await turn();
    await turn();
  }
  await host.settle(2000);
  const runner = served.entityIds.get('runner')!;
  const owner = [a, b].find((z) => z.owns(runner))!;
  const result = { count: owner.world.property(runner, 'count'), zone: owner.id };
  await host.close();
  return result;
}

describe("a served scenario's casts", () => {
  it('run once each when their caster crosses into a zone ahead of its own', async () => {
    expect(await crossWith(10)).toEqual({ count: CASTS, zone: 'z1-0' });
  });

  it('run once each when their caster crosses into a zone behind its own', async () => {
    expect(await crossWith(-10)).toEqual({ count: CASTS, zone: 'z1-0' });
  });
});
