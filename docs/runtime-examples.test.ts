/**
 * The two runnable examples at the top and bottom of docs/runtime.md — the
 * World embedding in TypeScript and the scenario file — run as written
 * (they once failed: breeds.json names spells the examples did not load).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeEvent, EntityNames, parseScenario, runScenario, World, type WorldEvent } from '../index.js';

const root = new URL('..', import.meta.url).pathname;
const runtimeDoc = readFileSync(join(root, 'docs/runtime.md'), 'utf8');

function firstBlock(language: string, after = ''): string {
  const start = runtimeDoc.indexOf(after);
  const match = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'm').exec(runtimeDoc.slice(start));
  if (!match) throw new Error(`no \`\`\`${language} block in docs/runtime.md after '${after}'`);
  return match[1]!;
}

describe('docs/runtime.md examples', () => {
  it('the World example imports from the package root and runs: the fireball hits the troll', () => {
    const code = firstBlock('ts');
    expect(code).toContain("from 'cantrip-lang'");
    // The block is plain JavaScript apart from its imports, which are supplied here.
    const body = code.replace(/^import .*$/gm, '');
    const lines: string[] = [];
    const readFromRoot = (path: string, encoding: 'utf8') => readFileSync(join(root, path), encoding);
    const run = new Function('readFileSync', 'World', 'describeEvent', 'EntityNames', 'console', body) as (...args: unknown[]) => void;
    run(readFromRoot, World, describeEvent, EntityNames, { log: (line: string) => lines.push(line) });
    expect(lines).toContain('[tick 0] Wizard#1 casts fireball on Troll#2');
    expect(lines.some((line) => /Troll#2 takes \d+ damage/.test(line))).toBe(true);
    expect(lines.filter((line) => line.includes('error'))).toEqual([]);
  });

  it('the pieces-on-their-own example runs as written: the guard sees the thief enter', async () => {
    const code = firstBlock('ts', '## The pieces on their own');
    const body = code.replace(/^import .*$/gm, '');
    const lines: string[] = [];
    const cantrip = await import('../index.js');
    const run = new Function('EntityPool', 'GridIndex', 'AreaOfInterest', 'handleIndex', 'console', body) as (...args: unknown[]) => void;
    run(cantrip.EntityPool, cantrip.GridIndex, cantrip.AreaOfInterest, cantrip.handleIndex, { log: (...parts: unknown[]) => lines.push(parts.join(' ')) });
    expect(lines).toEqual(['enter true true', '2', 'false']);
  });

  it('the scenario example (as a file in spells/scenarios/) runs without a cast error', () => {
    const scenario = parseScenario(firstBlock('json', '## Scenarios'));
    const base = join(root, 'spells/scenarios');
    const events: WorldEvent[] = [];
    runScenario(
      scenario,
      {
        readText: (path) => readFileSync(join(base, path), 'utf8'),
        readBytes: (path) => readFileSync(join(base, path)),
      },
      { onEvent: (e) => events.push(e) },
    );
    expect(events.filter((e) => e.type === 'cast-error')).toEqual([]);
    expect(events.some((e) => e.type === 'damage')).toBe(true);
    expect(dirname(join(base, scenario.breeds))).toBe(join(root, 'spells'));
  });
});
