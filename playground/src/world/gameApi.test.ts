import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../../../runtime/events/events.js';
import { hostApiDeclaration } from '../../../vm/host-api-json.js';
import { DEFAULT_BREEDS_JSON } from '../breedsData.js';
import { PLAYGROUND_GAME_HOSTS } from './gameApi.js';
import { PlaygroundWorld } from './playgroundWorld.js';

const FIREBALL = `spell fireball(caster, target) {
  damage(target, 1);
  wait(0.3);
  damage(target, 1);
  print "old fireball done";
}
`;

describe('the playground’s own game API', () => {
  it('is declared, exactly, in spells/game-api.json (what `cantrip check --api` reads)', () => {
    const file = JSON.parse(readFileSync(new URL('../../../spells/game-api.json', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(hostApiDeclaration(PLAYGROUND_GAME_HOSTS));
  });

  it('bounty.spell uses it on the live world: the wizard’s purse fills from the trolls’ bounty (breed data)', () => {
    const world = new PlaygroundWorld();
    const bounty = readFileSync(new URL('../../../spells/bounty.spell', import.meta.url), 'utf8');
    expect(world.sync(bounty, ['claimBounty'], DEFAULT_BREEDS_JSON)).toMatchObject({ ok: true });
    const w = world.world!;
    const wizard = w.entities().find((e) => e.breed === 'Wizard')!.id;
    const troll = w.entities().find((e) => e.breed === 'Troll')!.id;
    const said: string[] = [];
    w.on((e: WorldEvent) => e.type === 'say' && said.push(e.text));
    w.cast('claimBounty', wizard, troll);
    w.flush();
    expect(said).toEqual(['The bounty is mine: 5 gold in my purse.']);
    expect(w.property(wizard, 'gold')).toBe(5);
  });
});

describe('live reload in the playground', () => {
  it('editing the spells reloads them in the running world: entities stay, a cast in flight finishes on the old code', () => {
    const world = new PlaygroundWorld();
    let rebuilt = 0;
    world.onRebuild(() => rebuilt++);
    expect(world.sync(FIREBALL, ['fireball'], DEFAULT_BREEDS_JSON)).toMatchObject({ ok: true, rebuilt: true });
    const w = world.world!;
    for (let i = 0; i < 5; i++) w.step(); // the trolls walk
    const before = w.entities().map((e) => [e.id, e.x, e.y]);
    const troll = w.entities().find((e) => e.breed === 'Troll')!.id;
    const printed: string[] = [];
    const events: WorldEvent[] = [];
    world.onEvent((e) => {
      events.push(e);
      if (e.type === 'print') printed.push(e.text);
    });
    expect(w.cast('fireball', null, troll).state).toBe('suspended');
    const edited = FIREBALL.replace(/damage\(target, 1\)/g, 'damage(target, 2)').replace('old', 'new');
    const result = world.sync(edited, ['fireball'], DEFAULT_BREEDS_JSON);
    expect(result).toMatchObject({ ok: true, rebuilt: false, reload: { changed: ['fireball'], added: [], removed: [] } });
    expect(world.world).toBe(w);
    expect(rebuilt).toBe(0);
    expect(w.entities().map((e) => [e.id, e.x, e.y])).toEqual(before);
    expect(events.some((e) => e.type === 'spells-reload')).toBe(true);
    w.cast('fireball', null, troll);
    for (let i = 0; i < 5; i++) w.step();
    expect(printed).toEqual(['old fireball done', 'new fireball done']);
  });
});
