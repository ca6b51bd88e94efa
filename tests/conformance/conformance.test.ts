/**
 * Runs every annotated program under tests/conformance through the CLI's
 * `main` in-process (`cantrip run <file>`), one test per file, and compares
 * stdout, stderr and the exit code with the file's annotations.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../bin/cli.js';
import { expectedExitCode, parseExpectations, type Expectations } from './expectations.js';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

function findSpells(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return findSpells(full);
      return entry.name.endsWith('.spell') ? [full] : [];
    })
    .sort();
}

interface Outcome {
  readonly exitCode: number;
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

async function runSpell(file: string, cliArgs: readonly string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(['run', ...cliArgs, file], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
  });
  return { exitCode, stdout: toLines(stdout), stderr: toLines(stderr) };
}

function toLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

/** What the annotations say stderr must look like; for runtime errors only the message and the `[line N]` of the innermost frame. */
function expectedStderr(e: Expectations): readonly string[] {
  if (e.compileErrors.length > 0) return e.compileErrors;
  if (e.runtimeError !== null) return [e.runtimeError.message, `[line ${e.runtimeError.line}]`];
  return [];
}

function comparableStderr(e: Expectations, stderr: readonly string[]): readonly string[] {
  if (e.compileErrors.length > 0 || e.runtimeError === null) return stderr;
  const frame = /^\[line \d+\]/.exec(stderr[1] ?? '')?.[0] ?? stderr[1] ?? '(no stack trace)';
  return [stderr[0] ?? '(no message)', frame];
}

const files = findSpells(ROOT);

describe('conformance suite', () => {
  it('has hundreds of programs', () => {
    expect(files.length).toBeGreaterThanOrEqual(300);
  });

  for (const file of files) {
    const name = path.relative(ROOT, file);
    it(name, async () => {
      const e = parseExpectations(fs.readFileSync(file, 'utf8'));
      const outcome = await runSpell(file, e.cliArgs);
      expect({
        exitCode: outcome.exitCode,
        stdout: outcome.stdout,
        stderr: comparableStderr(e, outcome.stderr),
      }).toEqual({ exitCode: expectedExitCode(e), stdout: e.output, stderr: expectedStderr(e) });
    });
  }
});
