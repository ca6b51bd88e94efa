/**
 * The runnable examples of docs/runtime.md — the World embedding and the
 * pieces on their own in TypeScript, and the scenario file — run as written
 * (they once failed: breeds.json names spells the examples did not load).
 * The TypeScript ones run as a game would run them: compiled by tsc against
 * the built package (typescript-examples.test-helper.ts), then run by node
 * from the repository root. Needs dist/ (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario, runScenario, type WorldEvent } from '../index.js';
import { compileTypeScriptExamples, root, type CompiledExamples } from './typescript-examples.test-helper.js';

const runtimeDoc = readFileSync(join(root, 'docs/runtime.md'), 'utf8');

function firstBlock(language: string, after = ''): string {
  const start = runtimeDoc.indexOf(after);
  const match = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'm').exec(runtimeDoc.slice(start));
  if (!match) throw new Error(`no \`\`\`${language} block in docs/runtime.md after '${after}'`);
  return match[1]!;
}

let compiled: CompiledExamples;

beforeAll(() => {
  compiled = compileTypeScriptExamples();
}, 120_000);

afterAll(() => compiled?.dispose());

/** What the runtime.md example under `heading` prints, run with node. */
function runExample(heading: string): string[] {
  const example = compiled.examples.find((e) => e.doc === 'runtime.md' && e.heading === heading);
  if (!example) throw new Error(`no TypeScript example under '${heading}' in docs/runtime.md`);
  const out = execFileSync(process.execPath, [compiled.outputOf(example)], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter((line) => line !== '');
}

describe('docs/runtime.md examples', () => {
  it('the World example imports from the package root and runs: the fireball hits the troll', () => {
    expect(firstBlock('ts')).toMatch(/from 'cantrip-lang'/);
    const lines = runExample('# The Cantrip runtime');
    expect(lines).toContain('[tick 0] Wizard#1 casts fireball on Troll#2');
    expect(lines.some((line) => /Troll#2 takes \d+ damage/.test(line))).toBe(true);
    expect(lines.filter((line) => line.includes('error'))).toEqual([]);
  });

  it('the pieces-on-their-own example runs as written: the guard sees the thief enter', () => {
    expect(runExample('## The pieces on their own')).toEqual(['enter true true', '2', 'false']);
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
