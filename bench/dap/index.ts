/**
 * Debug adapter benchmark (a number, not a test): how long an editor waits
 * from starting a debug session to the first breakpoint stop — `cantrip
 * dap` spawned as an editor spawns it, driven over stdio by the plain DAP
 * client of the tests (initialize, launch, setBreakpoints, configurationDone,
 * then the `stopped` event).
 *
 * Two figures per round: from the spawn of the process (what a user waits
 * for) and from the `launch` request (the adapter's own work: reading and
 * compiling the spell, running to the line). Medians over the rounds.
 * The target (issue 30) is ≤ 500 ms. On a shared machine wall time counts
 * the other jobs too, so the adapter's own CPU time up to the stop is
 * reported beside it (Linux: /proc/<pid>/stat; 10 ms resolution).
 *
 *   node dist/bench/dap/index.js [--quick]      (or: npm run bench -- dap)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DapClient, REPO } from '../../tests/dap/dap-client.js';

const TARGET_MS = 500;

/** A spell file like a designer's: a few functions and a loop, the breakpoint inside a function called from the top level. */
const SPELL = `// A loot table rolled a few times.
var table = [
  {"name": "gold", "weight": 5},
  {"name": "potion", "weight": 3},
  {"name": "sword", "weight": 1}
];

fun totalWeight(entries) {
  var total = 0;
  for (e in entries) total += e["weight"];
  return total;
}

fun pick(entries, roll) {
  var left = roll;
  for (e in entries) {
    left -= e["weight"];
    if (left < 0) return e["name"];
  }
  return nil;
}

var all = totalWeight(table);
for (var i = 0; i < 5; i += 1) {
  print pick(table, (i * 7) % all);
}
`;
const BREAK_LINE = 16; // `left -= e["weight"];`

function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One session: spawn → initialize → launch → breakpoint → configurationDone → stopped. */
/** A process's CPU time (user + system) so far, in ms, or NaN where /proc is not there. */
function cpuTime(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the command name), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

async function session(dir: string, program: string): Promise<{ fromSpawn: number; fromLaunch: number; cpu: number; line: number }> {
  const spawned = performance.now();
  const client = new DapClient(dir);
  try {
    await client.request('initialize', { adapterID: 'cantrip', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const launchedAt = performance.now();
    const launch = client.request('launch', { program });
    await client.event('initialized');
    await client.request('setBreakpoints', { source: { path: program }, breakpoints: [{ line: BREAK_LINE }] });
    await client.request('configurationDone');
    await launch;
    await client.event('stopped');
    const stoppedAt = performance.now();
    const cpu = cpuTime(client.pid);
    const line = (await client.topFrame()).line;
    return { fromSpawn: stoppedAt - spawned, fromLaunch: stoppedAt - launchedAt, cpu, line };
  } finally {
    await client.close();
  }
}

export async function run(options: { quick?: boolean; write?: boolean } = {}): Promise<unknown> {
  const rounds = options.quick ? 3 : 11;
  const dir = mkdtempSync(join(tmpdir(), 'cantrip-dap-bench-'));
  const program = join(dir, 'loot.spell');
  writeFileSync(program, SPELL);
  const fromSpawn: number[] = [];
  const fromLaunch: number[] = [];
  const cpu: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const s = await session(dir, program);
      if (s.line !== BREAK_LINE) throw new Error(`stopped at line ${s.line}, not ${BREAK_LINE}`);
      fromSpawn.push(s.fromSpawn);
      fromLaunch.push(s.fromLaunch);
      cpu.push(s.cpu);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = {
    rounds,
    targetMs: TARGET_MS,
    fromSpawn: { median: median(fromSpawn), min: Math.min(...fromSpawn), max: Math.max(...fromSpawn) },
    fromLaunch: { median: median(fromLaunch), min: Math.min(...fromLaunch), max: Math.max(...fromLaunch) },
    adapterCpu: { median: median(cpu), min: Math.min(...cpu), max: Math.max(...cpu) },
    loadAverage: loadavg()[0],
  };
  const f = (n: number) => `${n.toFixed(0)} ms`;
  process.stdout.write(
    `dap: launch → first breakpoint stop, median of ${rounds} (target ≤ ${TARGET_MS} ms):\n` +
      `  from spawning \`cantrip dap\`: ${f(results.fromSpawn.median)} (${f(results.fromSpawn.min)}–${f(results.fromSpawn.max)})\n` +
      `  from the launch request:     ${f(results.fromLaunch.median)} (${f(results.fromLaunch.min)}–${f(results.fromLaunch.max)})\n` +
      `  the adapter's CPU time:      ${f(results.adapterCpu.median)} (${f(results.adapterCpu.min)}–${f(results.adapterCpu.max)}), load average ${results.loadAverage.toFixed(1)}\n`,
  );
  if (options.write) {
    const out = join(REPO, 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'dap.json'), JSON.stringify(results, null, 2) + '\n');
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run({ quick: process.argv.includes('--quick'), write: !process.argv.includes('--quick') }).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
