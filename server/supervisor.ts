/**
 * `cantrip serve --processes N --redis URL`: forks N workers (the same CLI
 * with `--worker n`, server/worker.ts), deals the zones out among them, and
 * serves `GET /status`, `GET /zones` and the page on the port (the workers'
 * Colyseus servers listen on P+1 … P+N; a client that joins a zone through P
 * is sent to the worker running it). It watches the workers' heartbeat
 * keys in Redis: a worker whose key expires is dead (killed, hung, its
 * machine gone), and the worker with the fewest zones takes its zones over
 * from their last save. With --ticks it waits until every zone has run T
 * ticks, lets the open hand-overs settle, merges the workers' summaries and
 * writes the file.
 */

import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { HEARTBEAT_EVERY_MS, heartbeatKey, readClusterStatus, zoneServed } from './cluster-status.js';
import { checkPortFree, startGameServer, stopGameServer } from './game-server.js';
import { RedisOwnershipStore } from './redis-ownership-store.js';
import { loadServedScenario } from './served-scenario.js';
import { notReloadedLine, spellFiles, untilSignalled, zonesResponse } from './serve-in-process.js';
import { SpellReloader, describeReload, watchSpellFiles, type SpellSource } from './spell-reload.js';
import type { SpellsReload } from '../runtime/world/world.js';
import type { ServeOptions, ServeSummary } from './serve-options.js';
import { mergeSummaries } from './summary.js';
import { claimZone, readAssignment, reassignZone, workerKey } from './zone-assignment.js';
import type { FromWorker, ToWorker } from './worker.js';

/** A zone another live process serves: this command must leave it out (--only). */
export class ZoneTakenError extends Error {
  constructor(
    readonly zone: string,
    readonly by: string,
  ) {
    super(`Zone ${zone} is served already, by a live worker (${by}): leave it out of --only, or stop that server first.`);
  }
}

/** The workers could not do what was asked (one exited before serving, none is left, one stopped answering). */
export class WorkersFailed extends Error {}

interface WorkerProcess {
  readonly index: number;
  readonly child: ChildProcess;
  /** Its worker key (`host:pid`): its heartbeat and the zone assignment name it. */
  readonly key: string;
  zones: Set<string>;
  alive: boolean;
  /** Its heartbeat key was seen at least once (so its absence means death, not a slow start). */
  beating: boolean;
}

export async function supervise(o: ServeOptions, log: (message: string) => void): Promise<void> {
  const served = loadServedScenario(o.scenarioFile, o.zones, o.hosts);
  const allZones = served.grid.zones.map((z) => z.id);
  // --only: the zones this command deals out (other machines run the rest).
  const zoneIds = o.only ?? allZones;
  // A --ticks run has no players: it binds no port.
  const listen = o.ticks === undefined;
  if (listen) await checkPortFree(o.port);
  const redis = new Redis(o.redis!, { maxRetriesPerRequest: 3 });
  const workers: WorkerProcess[] = [];
  const waiters = new Set<(message: FromWorker) => void>();
  const done = new Set<string>();
  const failures: string[] = [];
  let stopping = false;

  const send = (w: WorkerProcess, message: ToWorker): void => {
    if (w.alive && w.child.connected) w.child.send(message);
  };
  const onMessage = (message: FromWorker): void => {
    if (message.type === 'done') for (const z of message.zones) done.add(z);
    if (message.type === 'failed') failures.push(`worker ${message.worker}: ${message.message}`);
    for (const waiter of [...waiters]) waiter(message);
  };
  const next = <T extends FromWorker['type']>(type: T, count: number): Promise<Extract<FromWorker, { type: T }>[]> =>
    new Promise((resolve) => {
      const got: Extract<FromWorker, { type: T }>[] = [];
      const waiter = (m: FromWorker): void => {
        if (m.type !== type) return;
        got.push(m as Extract<FromWorker, { type: T }>);
        if (got.length >= count) {
          waiters.delete(waiter);
          resolve(got);
        }
      };
      waiters.add(waiter);
    });

  /** A worker of this supervisor died (it exited, or stopped beating): its zones go to a survivor. Set once the zones are dealt. */
  let buried: (w: WorkerProcess, how: string) => Promise<void> = async () => {};

  // Fork the workers and wait until each serves.
  const ready = next('ready', o.processes);
  for (let index = 0; index < o.processes; index++) {
    const child = fork(process.argv[1]!, workerArguments(o, index), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const w: WorkerProcess = { index, child, key: workerKey(child.pid), zones: new Set(), alive: true, beating: false };
    child.on('message', (m: FromWorker) => onMessage(m));
    child.on('exit', (code, signal) => {
      if (w.alive && !stopping && code !== null && code !== 0 && !w.beating) failures.push(`worker ${index} exited with code ${code} before it served`);
      // A worker that served and exited (killed, crashed) is dead now: its zones are taken over at once, not when its heartbeat expires.
      if (w.alive && !stopping && w.beating) void buried(w, `exited (${signal ?? `code ${code}`})`).catch(() => {});
      w.alive = false;
    });
    workers.push(w);
  }
  const started = await Promise.race([ready, waitFor(() => failures.length > 0 || workers.some((w) => !w.alive))]);
  // The port clients know: status, zones, the page, and Colyseus matchmaking (Redis presence and
  // driver) that sends a client joining a zone to the worker whose room it is.
  // Read only: where a player's avatar is now (GET /avatar/<id>).
  const owners = new RedisOwnershipStore(o.redis!, o.namespace);
  const http = !listen ? null : await startGameServer({
    port: o.port,
    redis: o.redis,
    publicAddress: `${o.publicHost ?? 'localhost'}:${o.port}`,
    pageDir: o.pageDir,
    log,
    status: () => readClusterStatus(redis, o.namespace),
    zones: () => zonesResponse(served),
    whereIs: async (id) => {
      const record = await owners.owner(id);
      const dead = (key: string): boolean => workers.some((w) => w.key === key && !w.alive);
      return record === null ? null : { zone: record.zone, ready: await zoneServed(redis, o.namespace, record.zone, dead) };
    },
  });
  try {
    if (!Array.isArray(started)) throw new WorkersFailed(failures.join('; ') || 'a worker process exited before it served.');
    // Claim the zones in Redis first: one another machine serves is refused; one a dead
    // worker served (this namespace ran before) is taken over from its save, not started afresh.
    const fresh = new Map<WorkerProcess, string[]>();
    const recover = new Map<WorkerProcess, string[]>();
    for (const [i, z] of zoneIds.entries()) {
      const w = workers[i % workers.length]!;
      const claim = await claimZone(redis, o.namespace, z, w.key, heartbeatKey(o.namespace, ''));
      if (claim.kind === 'taken') throw new ZoneTakenError(z, claim.by);
      w.zones.add(z);
      const list = claim.kind === 'fresh' ? fresh : recover;
      list.set(w, [...(list.get(w) ?? []), z]);
    }
    for (const [w, zones] of fresh) send(w, { type: 'run', zones, recover: false });
    for (const [w, zones] of recover) send(w, { type: 'run', zones, recover: true });
    const where = listen ? `status on port ${o.port}, players on ports ${o.port + 1}–${o.port + o.processes}` : 'no ports (a --ticks run)';
    log(`cantrip serve: ${zoneIds.length} zones of ${o.scenarioFile} in ${o.processes} processes (${workers.map((w) => w.child.pid).join(', ')}); ${where}`);

    /** Give zones of a dead worker (`from`: its key) to the live worker with the fewest; only those this supervisor wins in Redis. */
    const takeOver = async (zones: readonly string[], from: string, who: string): Promise<void> => {
      const survivor = workers.filter((x) => x.alive).sort((a, b) => a.zones.size - b.zones.size)[0];
      if (survivor === undefined) {
        failures.push('every worker died');
        return;
      }
      const won: string[] = [];
      for (const z of zones) if (await reassignZone(redis, o.namespace, z, from, survivor.key)) won.push(z);
      if (won.length === 0) return;
      for (const z of won) {
        survivor.zones.add(z);
        done.delete(z);
      }
      log(`${who}: worker ${survivor.index} (process ${survivor.child.pid}) takes over ${won.join(', ')}`);
      send(survivor, { type: 'run', zones: won, recover: true });
    };
    buried = async (w, how) => {
      w.beating = false;
      w.alive = false;
      w.child.kill('SIGKILL');
      const zones = [...w.zones];
      w.zones.clear();
      if (zones.length > 0) await takeOver(zones, w.key, `worker ${w.index} (process ${w.child.pid}) ${how}`);
    };
    // --watch: a changed spell file is tried here first, then reloaded by every worker in its zones.
    const reloader = new SpellReloader(served);
    const unwatch = o.watch !== true ? () => {} : watchSpellFiles(spellFiles(served), (file) => void reloadEverywhere(file).catch(() => {}));
    const reloadEverywhere = async (file: SpellSource): Promise<void> => {
      let reports: SpellsReload[];
      try {
        reports = reloader.trial([file]);
      } catch (error) {
        log(notReloadedLine(file, error));
        return;
      }
      const live = workers.filter((w) => w.alive);
      const answers = next('reloaded', live.length);
      for (const w of live) send(w, { type: 'reload', files: [file] });
      log(describeReload(reports, `in ${live.length} process${live.length === 1 ? '' : 'es'}`));
      const failed = (await answers).filter((a) => a.error !== undefined);
      for (const a of failed) log(`cantrip serve: worker ${a.worker} could not reload ${file.path}: ${a.error}`);
    };
    // Watch the heartbeats: this supervisor's workers, and (serving without --ticks) every other
    // worker of the namespace, on this machine or another, whose zones are in the assignment.
    const watch = setInterval(() => {
      void (async () => {
        // Stopping: workers delete their heartbeats as they leave; that is no death.
        if (stopping) return;
        for (const w of workers) {
          if (!w.alive && !w.beating) continue;
          const beating = (await redis.exists(heartbeatKey(o.namespace, w.key))) === 1;
          if (beating) {
            w.beating = true;
            continue;
          }
          if (!w.beating || w.zones.size === 0) continue;
          await buried(w, 'stopped beating');
        }
        if (o.ticks !== undefined) return;
        const own = new Set(workers.map((w) => w.key));
        for (const [zone, key] of await readAssignment(redis, o.namespace)) {
          if (own.has(key) || (await redis.exists(heartbeatKey(o.namespace, key))) === 1) continue;
          await takeOver([zone], key, `worker ${key} (another supervisor's) stopped beating`);
        }
      })().catch(() => {});
    }, HEARTBEAT_EVERY_MS);
    try {
      if (o.ticks === undefined) {
        const signal = await untilSignalled();
        stopping = true;
        const saved: Extract<FromWorker, { type: 'saved' }>[] = [];
        const collect = (m: FromWorker): void => void (m.type === 'saved' && saved.push(m));
        waiters.add(collect);
        for (const w of workers) send(w, { type: 'exit' });
        await waitFor(() => workers.every((w) => !w.alive || w.child.exitCode !== null), 5000);
        waiters.delete(collect);
        const zones = saved.reduce((n, m) => n + m.zones, 0);
        const entities = saved.reduce((n, m) => n + m.entities, 0);
        const failed = saved.flatMap((m) => m.failed);
        const silent = workers.length - saved.length;
        log(
          `cantrip serve: stopped on ${signal}: ${saved.length} worker${saved.length === 1 ? '' : 's'} saved ${zones} zone${zones === 1 ? '' : 's'} (${entities} entities) to Redis` +
            (failed.length > 0 ? `; not saved: ${failed.join(', ')}` : '') +
            (silent > 0 ? `; ${silent} worker${silent === 1 ? '' : 's'} did not answer (its zones keep their last periodic save)` : '') +
            '.',
        );
        return;
      }
      await waitFor(() => done.size === zoneIds.length || failures.length > 0);
      if (failures.length > 0) throw new WorkersFailed(failures.join('; '));
      clearInterval(watch);
      const summary = await collectSummary(workers, send, next);
      writeFileSync(o.summary!, JSON.stringify(mergeSummaries(summary, allZones), null, 2) + '\n');
    } finally {
      clearInterval(watch);
      unwatch();
    }
  } finally {
    stopping = true;
    for (const w of workers) send(w, { type: 'exit' });
    await waitFor(() => workers.every((w) => !w.alive || w.child.exitCode !== null), 5000);
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    if (http !== null) await stopGameServer(http);
    await owners.close();
    redis.disconnect();
  }
}

/** Settle rounds until no worker has a hand-over open, then every worker's summary. */
async function collectSummary(
  workers: WorkerProcess[],
  send: (w: WorkerProcess, m: ToWorker) => void,
  next: <T extends FromWorker['type']>(type: T, count: number) => Promise<Extract<FromWorker, { type: T }>[]>,
): Promise<ServeSummary[]> {
  const alive = workers.filter((w) => w.alive);
  // A worker that dies now would leave the summary waiting for ever: each answer has a time limit.
  const answered = async <T>(answers: Promise<T>, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new WorkersFailed(`a worker did not answer ${what} within ${ANSWER_LIMIT_MS / 1000} s`)), ANSWER_LIMIT_MS)));
    try {
      return await Promise.race([answers, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  for (let round = 0; round < 20; round++) {
    const settled = next('settled', alive.length);
    for (const w of alive) send(w, { type: 'settle' });
    const busy = (await answered(settled, 'whether its hand-overs settled')).reduce((n, m) => n + m.busy, 0);
    if (busy === 0) break;
  }
  const parts = next('summary', alive.length);
  for (const w of alive) send(w, { type: 'summary' });
  return (await answered(parts, 'with its summary')).map((m) => m.summary);
}

/** How long the supervisor waits for each worker's answer at the end of a --ticks run. */
const ANSWER_LIMIT_MS = 30_000;

function workerArguments(o: ServeOptions, index: number): string[] {
  const args = ['serve', o.scenarioFile, '--worker', String(index), '--port', String(o.port), '--zones', `${o.zones.columns}x${o.zones.rows}`];
  args.push('--processes', String(o.processes), '--redis', o.redis!, '--namespace', o.namespace);
  args.push('--snapshot-every', String(o.snapshotEvery), '--handover-timeout', String(o.handoverTimeoutMs), '--rejoin-grace', String(o.rejoinGrace));
  if (o.ticks !== undefined) args.push('--ticks', String(o.ticks), '--summary', o.summary!);
  if (o.only !== undefined) args.push('--only', o.only.join(','));
  if (o.publicHost !== undefined) args.push('--public-host', o.publicHost);
  if (o.hostsModule !== undefined) args.push('--hosts', o.hostsModule);
  if (o.apiFile !== undefined) args.push('--api', o.apiFile);
  return args;
}

function waitFor(condition: () => boolean, limitMs = Infinity): Promise<boolean> {
  const until = Date.now() + limitMs;
  return new Promise((resolve) => {
    const check = (): void => {
      if (condition()) return resolve(true);
      if (Date.now() >= until) return resolve(false);
      setTimeout(check, 20);
    };
    check();
  });
}
