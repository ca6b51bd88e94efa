/**
 * What a spell does to an entity of another zone (its ghost here) reaches
 * the zone that owns it, once and in order: a shrine's onEnter heals, buffs,
 * marks and greets a pilgrim approaching from the neighbouring zone; moving
 * a ghost is refused with an error the spell sees; and what happens to an
 * entity near the border (its speech) reaches the neighbour's listeners —
 * its players — though not its world.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../runtime/events/events.js';
import { tempDir } from '../tests/temp-dir.test-helper.js';
import { LocalZoneBus } from './local-zone-bus.js';
import { MemoryOwnershipStore } from './memory-ownership-store.js';
import { servedScenario } from './served-scenario.js';
import { ZoneHost } from './zone-host.js';

const SPELLS = `
spell sanctify(self, other) {
  heal(other, 5);
  heal(other, 3);
  damage(other, 2);
  buff(other, "speed", 1, 30);
  other.blessed = true;
  say(other, "I feel blessed");
  say(self, "Welcome");
}
spell shove(caster, target) {
  setVelocity(target, 1, 0);
}
spell tag(caster, target) {
  target.loot = [1, 2];
}
`;

function scenario(dir: string) {
  writeFileSync(join(dir, 'border.spell'), SPELLS);
  writeFileSync(
    join(dir, 'breeds.json'),
    JSON.stringify({
      breeds: [
        { name: 'Shrine', health: 100, speed: 0, interest: 4, spells: { onEnter: 'sanctify' } },
        { name: 'Pilgrim', health: 40, speed: 4, interest: 4, attributes: { blessed: false } },
      ],
    }),
  );
  return servedScenario(
    {
      breeds: join(dir, 'breeds.json'),
      spells: [join(dir, 'border.spell')],
      world: { width: 40, height: 20, step: 0.05 },
      entities: [
        { name: 'shrine', breed: 'Shrine', x: 18, y: 10 },
        { name: 'pilgrim', breed: 'Pilgrim', x: 26, y: 10 },
      ],
    },
    { columns: 2, rows: 1 },
    { name: 'border', hosts: [] },
  );
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('effects across a zone border', () => {
  it("reach the owner once and in order; moving a ghost or giving it a list is refused; speech reaches the neighbour's players", async () => {
    const served = scenario(tempDir('cantrip-border-'));
    const host = new ZoneHost({ served, store: new MemoryOwnershipStore(), bus: new LocalZoneBus(), handoverTimeoutMs: 5000, saveEveryMs: 0, log: () => {} });
    const west = await host.addZone('z0-0', false);
    const east = await host.addZone('z1-0', false);
    const shrine = served.entityIds.get('shrine')!;
    const pilgrim = served.entityIds.get('pilgrim')!;
    east.world.setProperty(pilgrim, 'health', 20);
    const westHeard: WorldEvent[] = [];
    const eastHeard: WorldEvent[] = [];
    const eastWorld: WorldEvent[] = [];
    west.onEvent((e) => westHeard.push(e));
    east.onEvent((e) => eastHeard.push(e));
    east.world.on((e) => eastWorld.push(e as WorldEvent));
    const steps = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        west.step();
        east.step();
        await turn();
        await turn();
      }
    };
    await steps(3);
    eastWorld.length = 0; // the health set above
    // The pilgrim walks west toward the border: its ghost enters the shrine's range in z0-0 (x ≤ 22).
    east.command(pilgrim, { kind: 'move', vx: -4, vy: 0 });
    for (let i = 0; i < 60 && east.world.property(pilgrim, 'blessed') !== true; i++) await steps(1);
    east.command(pilgrim, { kind: 'move', vx: 0, vy: 0 });
    await steps(2);

    expect(west.owns(pilgrim)).toBe(false);
    expect(east.owns(pilgrim)).toBe(true);
    // 20 + 5 + 3 - 2, in that order (a heal past the maximum would be cut, a damage first would differ only at 0).
    expect(east.world.property(pilgrim, 'health')).toBe(26);
    expect(east.world.property(pilgrim, 'blessed')).toBe(true);
    expect(east.world.stat(pilgrim, 'speed')).toBe(5);
    const effects = eastWorld.filter((e) => ['heal', 'damage', 'buff', 'say'].includes(e.type) && 'entity' in e && e.entity === pilgrim).map((e) => e.type);
    expect(effects).toEqual(['heal', 'heal', 'damage', 'buff', 'say']);
    // The shrine's own greeting happened in z0-0; the east zone's players (its listeners) hear it through the ghost, its world does not.
    expect(westHeard.some((e) => e.type === 'say' && e.entity === shrine && e.text === 'Welcome')).toBe(true);
    expect(eastHeard.some((e) => e.type === 'say' && e.entity === shrine && e.text === 'Welcome')).toBe(true);
    expect(eastWorld.some((e) => e.type === 'say' && e.entity === shrine)).toBe(false);

    // Refused, with an error the spell sees: moving a ghost, giving it a list.
    west.world.cast('shove', shrine, pilgrim);
    west.world.cast('tag', shrine, pilgrim);
    await steps(2);
    const errors = westHeard.filter((e) => e.type === 'cast-error').map((e) => (e.type === 'cast-error' ? e.message : ''));
    expect(errors).toEqual([
      expect.stringContaining('This entity belongs to another zone (a mirror): it cannot be moved from here.'),
      expect.stringContaining('only a number, a string, a bool or nil can be set on it'),
    ]);
    expect(east.world.entity(pilgrim)!.vx).toBe(0);
    await host.close();
  });
});
