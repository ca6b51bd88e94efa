/**
 * The playground's own game API: host functions the playground's world adds
 * to the built-ins with `new World({ hosts })`, as a game would. Completion
 * and hover know them because they are in the world's one host table. Their
 * declaration (no implementation) is spells/game-api.json, which the CLI
 * reads with `--api` (a test keeps the two equal).
 */
import { HostError } from '../../../vm/errors.js';
import type { HostFunction } from '../../../vm/host.js';
import { worldHostFunction } from '../../../runtime/host/world-hosts.js';

/** The entity field giveGold keeps the purse in (a spell reads it as `e.gold`). */
const PURSE = 'gold';

export const PLAYGROUND_GAME_HOSTS: readonly HostFunction[] = [
  worldHostFunction({
    name: 'giveGold',
    params: [
      { name: 'target', type: 'entity' },
      { name: 'amount', type: 'number', doc: 'gold to add, ≥ 0' },
    ],
    returns: 'number',
    doc: "Put gold in an entity's purse (its `gold` field) and return how much it now has. A game function of the playground's own.",
    impl: (ctx, target, amount) => {
      if (!(amount >= 0) || !Number.isFinite(amount)) throw new HostError('Argument 2 of giveGold() must be a finite number ≥ 0.');
      if (!ctx.world.isAlive(target.id)) throw new HostError('Entity is gone.');
      const purse = ctx.world.property(target.id, PURSE);
      const total = (typeof purse === 'number' ? purse : 0) + amount;
      ctx.world.setProperty(target.id, PURSE, total);
      return total;
    },
  }),
];
