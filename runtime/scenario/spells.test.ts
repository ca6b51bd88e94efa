import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { BreedRegistry } from '../entities/breeds.js';
import { describeEvent, type WorldEvent } from '../events/events.js';
import { WORLD_HOST_FUNCTIONS } from '../host/host-api.js';
import { parseScenario, runScenario, startScenario, type ScenarioFiles } from './scenario.js';
import { World } from '../world/world.js';

const SPELLS = resolve(dirname(fileURLToPath(import.meta.url)), '../../spells');
const SCENARIOS = join(SPELLS, 'scenarios');
const spellFiles = readdirSync(SPELLS).filter((f) => f.endsWith('.spell'));
const scenarioFiles = readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'));
const GAME_SPELLS = spellFiles.filter((f) => f !== 'hello.spell');

function filesFor(scenarioPath: string): ScenarioFiles {
  const base = dirname(scenarioPath);
  return {
    readText: (p) => readFileSync(resolve(base, p), 'utf8'),
    readBytes: (p) => new Uint8Array(readFileSync(resolve(base, p))),
  };
}

function runNamed(name: string): { events: WorldEvent[]; world: World; names: ReadonlyMap<string, number> } {
  const path = join(SCENARIOS, name);
  const run = startScenario(parseScenario(readFileSync(path, 'utf8')), filesFor(path));
  const events: WorldEvent[] = [];
  run.world.on((e) => events.push(e));
  run.world.flush();
  const ticks = parseScenario(readFileSync(path, 'utf8')).ticks ?? 100;
  for (let t = 0; t < ticks; t++) run.step();
  return { events, world: run.world, names: run.names };
}

/** A world with every example spell and the example breeds loaded. */
function exampleWorld(options: Partial<ConstructorParameters<typeof World>[0]> = {}): World {
  const world = new World({ width: 40, height: 40, seed: 5, ...options });
  for (const f of GAME_SPELLS) world.loadSpells(readFileSync(join(SPELLS, f), 'utf8'), f);
  world.loadBreeds(readFileSync(join(SPELLS, 'breeds.json'), 'utf8'));
  return world;
}

describe('spells/', () => {
  it('has at least 8 spells that use the game API', () => {
    const world = exampleWorld();
    expect(world.spellNames().length).toBeGreaterThanOrEqual(8);
    for (const spell of ['wizardHeal', 'fireball', 'chainLightning', 'summon', 'healingAura', 'haste', 'stoneskin', 'wander', 'spikeTrap', 'coneOfCold', 'slayAndLoot']) {
      expect(world.spellNames()).toContain(spell);
    }
  });

  it.each(spellFiles)('%s compiles against the world host API without diagnostics', (file) => {
    const { module, diagnostics } = compile(readFileSync(join(SPELLS, file), 'utf8'), { sourceName: file, hosts: WORLD_HOST_FUNCTIONS });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(module).not.toBeNull();
  });

  it('breeds.json names only spells that exist', () => {
    const registry = BreedRegistry.fromJson(readFileSync(join(SPELLS, 'breeds.json'), 'utf8'));
    expect(() => registry.checkSpells(new Set(exampleWorld().spellNames()))).not.toThrow();
  });

  it.each(scenarioFiles)('scenario %s runs without a cast error', (file) => {
    const path = join(SCENARIOS, file);
    const lines: string[] = [];
    const world = runScenario(parseScenario(readFileSync(path, 'utf8')), filesFor(path), {
      onEvent: (e) => lines.push(e.type === 'cast-error' ? `ERROR ${describeEvent(e)}` : describeEvent(e)),
    });
    expect(lines.filter((l) => l.startsWith('ERROR'))).toEqual([]);
    expect(lines.length).toBeGreaterThan(10);
    expect(world.steps).toBeGreaterThan(0);
  });
});

describe('the example spells do what they say', () => {
  it("the book's wizard spell: health + (agility + wisdom) / 2", () => {
    const world = exampleWorld();
    const wizard = world.spawn('Wizard', 5, 5);
    const troll = world.spawn('Troll', 6, 5);
    world.cast('trollAttack', troll, wizard); // 3 + wisdom 1 = 4 damage
    expect(world.entity(wizard)!.health).toBe(36);
    world.cast('wizardHeal', wizard);
    expect(world.entity(wizard)!.health).toBe(40); // (8 + 12) / 2 = 10, capped at maxHealth 40
    world.cast('fireball', troll, wizard); // heat 10 + 1/2 = 10.5, armour 0
    world.cast('wizardHeal', wizard);
    expect(world.entity(wizard)!.health).toBe(39.5);
  });

  it('fireball burns everything near the target except the caster, armour soaking some', () => {
    const world = exampleWorld();
    const wizard = world.spawn('Wizard', 10, 10);
    const troll = world.spawn('Troll', 12, 10);
    const archer = world.spawn('Troll Archer', 13, 11);
    const far = world.spawn('Troll', 30, 30);
    const events: WorldEvent[] = [];
    world.on((e) => events.push(e));
    const result = world.cast('fireball', wizard, troll);
    expect(result.state).toBe('suspended'); // waits 0.5 s before the boom
    world.flush();
    const damage = events.flatMap((e) => (e.type === 'damage' ? [[e.entity, e.amount]] : []));
    expect(damage).toEqual([
      [troll, 14],
      [archer, 14],
    ]);
    expect(world.entity(far)!.health).toBe(25);
    for (let i = 0; i < 5; i++) world.step();
    expect(events.filter((e) => e.type === 'sound').map((e) => e.tick)).toEqual([5]);
  });

  it('cone of cold chills only the creatures inside the 60° cone towards the target, within its range', () => {
    const world = exampleWorld();
    const wizard = world.spawn('Wizard', 10, 10);
    const aimed = world.spawn('Troll', 14, 10); // dead ahead, 4 away
    const edge = world.spawn('Imp', 13, 11.5); // 26.6° off the aim: inside
    const wide = world.spawn('Troll', 14, 13); // 36.9° off the aim: outside
    const behind = world.spawn('Troll Archer', 6, 10);
    const far = world.spawn('Troll', 18, 10); // in line, 8 away: past the range
    const events: WorldEvent[] = [];
    world.on((e) => events.push(e));
    world.cast('coneOfCold', wizard, aimed);
    world.flush();
    const damaged = events.flatMap((e) => (e.type === 'damage' ? [e.entity] : []));
    expect(damaged.sort()).toEqual([aimed, edge].sort());
    for (const spared of [wide, behind, far]) expect(world.entity(spared)!.health).toBe(25);
    // Colder close up: lerp(8, 4, 4/7) minus the troll's armour 2.
    expect(world.entity(aimed)!.health).toBeCloseTo(25 - (8 - (4 * 4) / 7 - 2));
    expect(events.filter((e) => e.type === 'buff').map((e) => (e as { entity: number }).entity).sort()).toEqual([aimed, edge].sort());
    expect(events).toContainEqual(expect.objectContaining({ type: 'say', text: 'Cone of cold: 2 chilled.' }));
    // Aimed the other way, the cone finds the archer behind.
    world.cast('coneOfCold', wizard, behind);
    world.flush();
    expect(world.entity(behind)!.health).toBeLessThan(25);
  });

  it('the loot table rolls weighted drops from a map: as many rolls as the breed is worth, items by weight', () => {
    const counts = new Map<string, number>();
    let casts = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const world = exampleWorld({ seed });
      const wizard = world.spawn('Wizard', 5, 5);
      const troll = world.spawn('Troll', 6, 5);
      const says: string[] = [];
      world.on((e) => {
        if (e.type === 'say') says.push(e.text);
      });
      world.cast('slayAndLoot', wizard, troll);
      world.flush();
      expect(world.entity(troll)).toBeNull();
      const line = says.find((t) => t.startsWith('Loot: '))!;
      expect(line).toMatch(/^Loot: \d+ \w+(, \d+ \w+)*\.$/);
      let rolls = 0;
      for (const [, n, item] of line.matchAll(/(\d+) (\w+)/g)) {
        expect(['gold', 'potion', 'dagger', 'crown']).toContain(item);
        counts.set(item!, (counts.get(item!) ?? 0) + Number(n));
        rolls += Number(n);
      }
      expect(rolls).toBe(2); // a troll's lootRolls
      casts++;
    }
    // 120 rolls at weights 60/25/13/2: gold is the commonest by far.
    const gold = counts.get('gold') ?? 0;
    expect(gold).toBeGreaterThan(casts * 2 * 0.4);
    expect(gold).toBeGreaterThan(counts.get('potion') ?? 0);
    expect(gold).toBeGreaterThan(counts.get('dagger') ?? 0);
  });

  it('the loot table heals the looter for every potion found, and refuses what has no table', () => {
    const world = exampleWorld({ seed: 3 });
    const wizard = world.spawn('Wizard', 5, 5);
    const imp = world.spawn('Imp', 6, 5);
    const says: string[] = [];
    world.on((e) => {
      if (e.type === 'say') says.push(e.text);
    });
    world.cast('slayAndLoot', wizard, imp);
    world.flush();
    expect(says).toEqual(['Nothing worth looting there.']);
    expect(world.entity(imp)).not.toBeNull();
    let potions = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const w = exampleWorld({ seed });
      const looter = w.spawn('Wizard', 5, 5);
      const brute = w.spawn('Troll', 4, 5);
      for (let i = 0; i < 4; i++) w.cast('trollAttack', brute, looter); // 4 damage each
      const before = w.entity(looter)!.health;
      expect(before).toBeLessThanOrEqual(40 - 15);
      const lines: string[] = [];
      w.on((e) => {
        if (e.type === 'say') lines.push(e.text);
      });
      w.cast('slayAndLoot', looter, w.spawn('Troll Wizard', 6, 5));
      w.flush();
      const found = Number(/(\d+) potion/.exec(lines.find((t) => t.startsWith('Loot: '))!)?.[1] ?? 0);
      expect(w.entity(looter)!.health).toBe(before + 5 * found);
      potions += found;
    }
    expect(potions).toBeGreaterThan(0);
  });

  it('chain lightning jumps to new victims with less power each time', () => {
    const world = exampleWorld();
    const wizard = world.spawn('Wizard', 1, 1);
    const victims = [world.spawn('Imp', 10, 10), world.spawn('Imp', 13, 10), world.spawn('Imp', 16, 10)];
    const events: WorldEvent[] = [];
    world.on((e) => events.push(e));
    world.cast('chainLightning', wizard, victims[0]!);
    world.flush();
    const hits = events.flatMap((e) => (e.type === 'damage' ? [[e.entity, Math.round(e.amount * 100) / 100]] : []));
    // Imps have 5 health: each bolt kills its victim, so the damage dealt is capped at 5.
    expect(hits).toEqual([
      [victims[0], 5],
      [victims[1], 5],
      [victims[2], 5],
    ]);
    expect(events.filter((e) => e.type === 'despawn').length).toBe(3);
  });

  it('summon spawns imps that follow their master and fade', () => {
    const world = exampleWorld({ step: 0.25 });
    const wizard = world.spawn('Wizard', 20, 20);
    world.cast('summon', wizard);
    const imps = world.entities().filter((e) => e.breed === 'Imp');
    expect(imps.length).toBe(3); // 1 + floor(12 / 6)
    expect(world.property(imps[0]!.id, 'master')).toMatchObject({ id: wizard });
    for (let i = 0; i < 11; i++) world.step();
    expect(world.entities().filter((e) => e.breed === 'Imp').length).toBe(3);
    world.step(); // lifetime 3 s = 12 steps of 0.25 s
    expect(world.entities().filter((e) => e.breed === 'Imp').length).toBe(0);
  });

  it('healing aura heals over time with wait and stops when the caster dies', () => {
    const world = exampleWorld({ step: 0.5 });
    const healer = world.spawn('Wizard', 5, 5);
    const friend = world.spawn('Wizard', 6, 5);
    world.setProperty(friend, 'health', 20);
    world.cast('healingAura', healer);
    expect(world.entity(friend)!.health).toBe(23);
    expect(world.waitingCasts).toBe(1);
    world.step();
    expect(world.entity(friend)!.health).toBe(23);
    world.step(); // one second later
    expect(world.entity(friend)!.health).toBe(26);
    world.despawn(healer);
    for (let i = 0; i < 10; i++) world.step();
    expect(world.entity(friend)!.health).toBe(26);
    expect(world.waitingCasts).toBe(0);
  });

  it('haste is a derived stat that reverts by itself; stoneskin reverts after its wait', () => {
    const world = exampleWorld({ step: 0.5 });
    const wizard = world.spawn('Wizard', 5, 5);
    world.cast('haste', wizard, wizard);
    expect(world.property(wizard, 'speed')).toBe(6);
    for (let i = 0; i < 5; i++) world.step();
    expect(world.property(wizard, 'speed')).toBe(6);
    world.step(); // 3 s
    expect(world.property(wizard, 'speed')).toBe(3);

    world.cast('stoneskin', wizard, wizard);
    expect(world.property(wizard, 'armor')).toBe(5);
    for (let i = 0; i < 8; i++) world.step();
    expect(world.property(wizard, 'armor')).toBe(0);
  });

  it('wander: a troll chases a hero it can see and strikes in range', () => {
    const world = exampleWorld();
    const hero = world.spawn('Wizard', 10, 10);
    const troll = world.spawn('Troll', 14, 10);
    world.step();
    expect(world.entity(troll)!.vx).toBeLessThan(0);
    const events: WorldEvent[] = [];
    world.on((e) => events.push(e));
    for (let i = 0; i < 40; i++) world.step();
    expect(events.some((e) => e.type === 'say' && e.text === 'The troll hits you!')).toBe(true);
    expect(world.entity(hero)!.health).toBeLessThan(40);
  });

  it('spike trap: onEnter hurts what walks in, not other traps', () => {
    const { events, names } = runNamed('traps.json');
    const troll = names.get('troll');
    const trapHits = events.filter((e) => e.type === 'damage' && e.entity === troll && e.amount === 6);
    expect(trapHits.length).toBe(1);
    expect(events.some((e) => e.type === 'say' && e.text === 'Welcome, Troll.')).toBe(true);
    expect(events.some((e) => e.type === 'despawn' && e.entity === troll && e.reason === 'killed')).toBe(true);
  });

  it('trolls scenario: the archer dies to chain lightning, the trolls fight back with their own lines', () => {
    const { events, names } = runNamed('trolls.json');
    expect(events.some((e) => e.type === 'despawn' && e.entity === names.get('archer') && e.reason === 'killed')).toBe(true);
    const lines = new Set(events.flatMap((e) => (e.type === 'say' ? [e.text] : [])));
    expect(lines).toContain('The troll hits you!');
    expect(lines).toContain('The troll wizard casts a spell on you!');
  });
});

describe('spells/game-api.json (the example game API, as `cantrip --api` reads it)', () => {
  it('declares what bounty.spell calls: with it the spell has no diagnostics, without it giveGold is unknown', async () => {
    const { readHostApiDeclaration } = await import('../../vm/host-api-json.js');
    const declared = readHostApiDeclaration(JSON.parse(readFileSync(join(SPELLS, 'game-api.json'), 'utf8')));
    const source = readFileSync(join(SPELLS, 'bounty.spell'), 'utf8');
    expect(compile(source, { hosts: [...WORLD_HOST_FUNCTIONS, ...declared] }).diagnostics).toEqual([]);
    expect(compile(source, { hosts: WORLD_HOST_FUNCTIONS }).diagnostics.map((d) => d.message)).toContain("Undefined variable 'giveGold'.");
  });
});
