/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`) as the functions with
 * the most self time, so VM hot spots can be read without DevTools:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/bench/run.js --only fib --engines cantrip
 *   node dist/bench/lang/profile-summary.js /tmp/prof/<file>.cpuprofile [topN]
 *
 * The interpreter is one big function, so the hot lines inside it (mapped
 * back to the TypeScript source through dist's source maps) follow.
 */

import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './paths.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  /** Samples per 1-based line of the generated file. */
  positionTicks?: { line: number; ticks: number }[];
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

export interface HotLine {
  readonly location: string;
  readonly text: string;
  readonly percent: number;
}

/** Maps a 1-based line of a dist .js file to its TypeScript origin (file:line and the line's text). */
function sourceLine(url: string, line: number): { location: string; text: string } {
  const file = fileURLToPath(url);
  const fallback = { location: `${relative(REPO_ROOT, file)}:${line}`, text: '' };
  if (!existsSync(`${file}.map`)) return fallback;
  const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
  const generated = readFileSync(file, 'utf8').split('\n')[line - 1] ?? '';
  const column = generated.length - generated.trimStart().length;
  const entry = map.findEntry(line - 1, column) as { originalSource?: string; originalLine?: number };
  if (entry.originalSource === undefined || entry.originalLine === undefined) return fallback;
  const original = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : resolve(dirname(file), entry.originalSource);
  const text = existsSync(original) ? (readFileSync(original, 'utf8').split('\n')[entry.originalLine] ?? '') : '';
  return { location: `${relative(REPO_ROOT, original)}:${entry.originalLine + 1}`, text: text.trim() };
}

/** The lines of our own code (file: URLs outside node_modules) with the most samples. */
export function hotLines(profile: CpuProfile, top: number): HotLine[] {
  const ticks = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    for (const t of node.positionTicks ?? []) total += t.ticks;
    if (!node.callFrame.url.startsWith('file:') || node.callFrame.url.includes('/node_modules/')) continue;
    for (const t of node.positionTicks ?? []) {
      const key = `${node.callFrame.url}#${t.line}`;
      ticks.set(key, (ticks.get(key) ?? 0) + t.ticks);
    }
  }
  return [...ticks.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, n]) => {
      const [url, line] = key.split('#') as [string, string];
      return { ...sourceLine(url, Number(line)), percent: (100 * n) / total };
    });
}

function main(): void {
  // Piping into `head` closes stdout early; that is not an error worth a stack trace.
  process.stdout.on('error', () => process.exit(0));
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
  process.stdout.write('\nhot lines (share of all line samples):\n');
  for (const line of hotLines(profile, Number(topArg ?? 25))) {
    process.stdout.write(`${line.percent.toFixed(1).padStart(5)}%  ${line.location.padEnd(24)} ${line.text}\n`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
