/**
 * The other process of the hand-over benchmark (bench/server/handover-rate.ts
 * forks it): runs zone z1-0 on Redis's store and bus and takes what it is offered.
 *
 *   node dist/bench/server/handover-peer.js <redis-url> <namespace> <width> <height>
 */

import { RedisOwnershipStore } from '../../server/redis-ownership-store.js';
import { RedisZoneBus } from '../../server/redis-zone-bus.js';
import { ZoneGrid, benchZone } from './bench-world.js';

const [url, ns, width, height] = process.argv.slice(2);
const grid = new ZoneGrid(Number(width), Number(height), { columns: 2, rows: 1 }, 1);
const store = new RedisOwnershipStore(url!, ns!);
const bus = new RedisZoneBus(url!, ns!);
const zone = await benchZone({ grid, zone: 'z1-0', store, bus });
process.on('message', async (message: string) => {
  if (message !== 'exit') return;
  process.send?.({ arrived: zone.handover.handoversIn, entities: zone.ownedCount });
  await zone.disconnect();
  await bus.close();
  await store.close();
  process.exit(0);
});
process.send?.('ready');
