/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`) as the functions with
 * the most self time, so VM hot spots can be read without DevTools:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/bench/run.js --only fib --engines cantrip
 *   node dist/bench/lang/profile-summary.js /tmp/prof/<file>.cpuprofile [topN]
 */

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './paths.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  readonly name: string;
  readonly location: string;
  readonly selfMs: number;
  readonly percent: number;
}

function location(frame: ProfileNode['callFrame']): string {
  if (frame.url === '') return '(native)';
  const path = frame.url.startsWith('file:') ? relative(REPO_ROOT, fileURLToPath(frame.url)) : frame.url;
  return `${path}:${frame.lineNumber + 1}`;
}

export function hotSpots(profile: CpuProfile, top: number): HotSpot[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, { name: string; location: string; us: number }>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    if (node === undefined) return;
    totalUs += delta;
    const key = `${node.callFrame.functionName}@${location(node.callFrame)}`;
    const entry = selfUs.get(key) ?? { name: node.callFrame.functionName || '(anonymous)', location: location(node.callFrame), us: 0 };
    entry.us += delta;
    selfUs.set(key, entry);
  });
  return [...selfUs.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ name: e.name, location: e.location, selfMs: e.us / 1000, percent: (100 * e.us) / totalUs }));
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: node dist/bench/lang/profile-summary.js <file.cpuprofile> [topN]\n');
    process.exit(64);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  for (const spot of hotSpots(profile, Number(topArg ?? 25))) {
    process.stdout.write(
      `${spot.percent.toFixed(1).padStart(5)}%  ${spot.selfMs.toFixed(0).padStart(7)} ms  ${spot.name}  ${spot.location}\n`,
    );
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
