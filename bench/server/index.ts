/**
 * `npm run bench -- server`: the zone server (issue 21, docs/server.md).
 *
 *   - entities one process steps at 20 Hz, tick spells and the server's own
 *     per-step work included (bench/server/zone-capacity.ts; target ≥ 10,000);
 *   - hand-overs a second between two processes over Redis, and the p99
 *     latency of one (bench/server/handover-rate.ts; targets ≥ 1,000/s,
 *     p99 ≤ 10 ms; skipped without /usr/bin/redis-server);
 *   - step times of a zone of 10,000 entities while it saves (bench/server/save-steps.ts;
 *     target p99 ≤ 50 ms);
 *   - bytes per client per tick at 300 clients with ~80 entities in view,
 *     and AOI-filtered views against sending every client the whole zone
 *     (bench/server/view-bytes.ts; target ≤ 400).
 *
 * Results go to bench/results/server.json.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR } from '../lang/paths.js';
import { fmt, formatTable } from '../spatial/table.js';
import { handoverRate } from './handover-rate.js';
import { viewBytes } from './view-bytes.js';
import { zoneCapacity } from './zone-capacity.js';
import { saveSteps } from './save-steps.js';

export async function run(options: { quick?: boolean; write?: boolean } = {}): Promise<unknown> {
  const quick = options.quick === true;
  const capacity = await zoneCapacity(quick ? [5_000, 10_000] : [10_000, 20_000, 40_000], quick ? 20 : 60);
  process.stdout.write(
    '\nEntities one process steps at 20 Hz (one zone of wanderers, tick spell on each; median ms per step)\n\n' +
      formatTable(
        ['entities', 'ms per step', 'entities at 20 Hz', '÷ target 10,000'],
        capacity.map((r) => [r.entities.toLocaleString('en'), fmt(r.msPerStep), r.entitiesAt20Hz.toLocaleString('en'), `${(r.entitiesAt20Hz / 10_000).toFixed(2)}×`]),
      ) +
      '\n',
  );
  const saves = await saveSteps(10_000, quick ? 100 : 200);
  process.stdout.write(
    '\nStep times while saving: one zone of 10,000 wanderers, a save every 2 s of zone time (in-memory store), ms\n\n' +
      formatTable(
        ['save', 'p50', 'p90', 'p99', 'max', 'last save wrote'],
        saves.map((r) => [r.how, fmt(r.p50), fmt(r.p90), fmt(r.p99), fmt(r.max), `${r.written.toLocaleString('en')} of ${r.visited.toLocaleString('en')}`]),
      ) +
      `\n(target: p99 ≤ 50 ms at 20 Hz with saves on, over ${saves[0]!.steps} steps)\n`,
  );
  const handover = await handoverRate(quick ? 1000 : 4000, quick ? 1000 : 4000, 2000);
  if (handover === null) {
    process.stdout.write('\nHand-overs between two processes: skipped (no /usr/bin/redis-server)\n');
  } else {
    process.stdout.write(
      '\nHand-overs between two processes over Redis (each entity with a cast waiting)\n\n' +
        formatTable(
          ['load', 'hand-overs', 'per second', 'median ms', 'p90 ms', 'p99 ms'],
          [
            ['steady (20 every 20 ms)', String(handover.steadyCount), fmt(handover.steadyPerSecond), fmt(handover.medianMs), fmt(handover.p90Ms), fmt(handover.p99Ms)],
            ['burst (all at once)', String(handover.burstCount), fmt(handover.burstPerSecond), '', '', ''],
          ],
        ) +
        `\n(after a warm-up of 2,000; p99 of each quarter of the steady run: ${handover.p99ByQuarter.map((v) => fmt(v)).join(', ')} ms; the other process received ${handover.arrived})\n`,
    );
  }
  const views = viewBytes(300, 2400, 100, quick ? 20 : 60);
  const whole = views.find((v) => v.encoding.startsWith('whole'))!;
  process.stdout.write(
    `\nBytes per client per tick: 300 clients, ${views[0]!.meanInView.toFixed(1)} entities in view on average (Colyseus frames, msgpack)\n\n` +
      formatTable(
        ['what each client gets', 'bytes per client per tick', 'whole zone ÷ this', 'ms per tick (all clients)'],
        views.map((v) => [v.encoding, fmt(v.bytesPerClientTick), `${(whole.bytesPerClientTick / v.bytesPerClientTick).toFixed(1)}×`, fmt(v.msPerTick)]),
      ) +
      `\n(target ≤ 400 bytes per client per tick by default: the compact encoding reads ${fmt(views[1]!.bytesPerClientTick)})\n`,
  );
  const results = { node: process.version, capacity, saves, handover, views };
  if (options.write) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, 'server.json'), JSON.stringify(results, null, 2) + '\n');
  }
  return results;
}
