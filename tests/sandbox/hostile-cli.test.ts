/**
 * Hostile input at the CLI's edges, beyond what tests/cli covers for `run`:
 * the same inputs through `check`, `compile` and `disasm`; files that even
 * root cannot read (/proc/self/mem), endless devices (/dev/zero), symlink
 * loops, random bytes behind a valid .spb magic number, and 100,000-deep
 * nesting of every construct that nests. Each gets a clean message, the
 * right exit code and no JS stack trace. Spawns the built launcher
 * (`npm test` builds first).
 */

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../fuzz/corpus.js';

const LAUNCHER = path.join(REPO, 'bin', 'cantrip.js');
const MB = 1024 * 1024;

interface Result {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cantrip(...args: string[]): Result {
  const r = spawnSync(process.execPath, [LAUNCHER, ...args], { cwd: tmp, encoding: 'utf8', maxBuffer: 64 * MB, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** No JS stack frame, no "internal error", and a bounded amount of text. */
function expectClean(r: Result): void {
  const all = r.stdout + r.stderr;
  expect(all).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(all).not.toMatch(/internal error|Internal error|TypeError|RangeError|ReferenceError/);
  expect(r.stderr.split('\n').length).toBeLessThan(250);
}

let tmp: string;

function file(name: string, content: string | Uint8Array): string {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, content);
  return name;
}

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let s = seed;
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    bytes[i] = s >>> 24;
  }
  return bytes;
}

/** The hostile text inputs, by name, with the exit code every command must give them. */
const HOSTILE: Record<string, { content: () => string | Uint8Array; status: number; message: RegExp }> = {
  'garbage.spell': { content: () => pseudoRandomBytes(4096, 7), status: 65, message: /not a text file/ },
  'nul.spell': { content: () => 'print 1;\nprint "a\0b";\n', status: 65, message: /NUL byte at byte 17, line 2/ },
  'latin1.spell': { content: () => Buffer.from([...Buffer.from('print "caf'), 0xe9, ...Buffer.from('";\n')]), status: 65, message: /invalid UTF-8 at byte 10/ },
  'parens.spell': { content: () => `print ${'('.repeat(100_000)}1${')'.repeat(100_000)};\n`, status: 65, message: /Too much nesting/ },
  'blocks.spell': { content: () => `${'{'.repeat(100_000)}print 1;${'}'.repeat(100_000)}\n`, status: 65, message: /Too much nesting/ },
};

const HAS_PROC_MEM = fs.existsSync('/proc/self/mem');
const HAS_DEV_ZERO = fs.existsSync('/dev/zero');

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cantrip-hostile-'));
  if (!fs.existsSync(path.join(REPO, 'dist', 'bin', 'cli.js'))) {
    throw new Error('dist/bin/cli.js is missing: run `npm run build` before these tests (npm test does).');
  }
  for (const [name, { content }] of Object.entries(HOSTILE)) file(name, content());
  fs.mkdirSync(path.join(tmp, 'a-directory'));
  fs.symlinkSync('loop-b', path.join(tmp, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(tmp, 'loop-b'));
  file('hello.spell', 'print "hello";\n');
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('cantrip check on every hostile input at once', () => {
  it('reports each file cleanly and exits with the most serious code (66)', () => {
    const names = ['no-such.spell', 'a-directory', 'loop-a', ...Object.keys(HOSTILE), 'hello.spell'];
    if (HAS_PROC_MEM) names.push('/proc/self/mem');
    if (HAS_DEV_ZERO) names.push('/dev/zero');
    const r = cantrip('check', ...names);
    expect(r.status).toBe(66);
    const all = r.stdout + r.stderr;
    expect(all).toMatch(/cannot read 'no-such\.spell': no such file/);
    expect(all).toMatch(/no .spell files in 'a-directory'/); // a folder is walked (bin/spell-paths.ts); this one holds no spell
    expect(all).toMatch(/cannot read 'loop-a': too many symbolic links/);
    if (HAS_PROC_MEM) expect(all).toMatch(/cannot read '\/proc\/self\/mem'/);
    if (HAS_DEV_ZERO) expect(all).toMatch(/cannot read '\/dev\/zero': the file is larger than the 10 MB limit/);
    for (const [name, { message }] of Object.entries(HOSTILE)) expect(all, name).toMatch(message);
    expect(all).toMatch(new RegExp(`checked ${names.length} files: ${names.length - 1} errors`));
    expectClean(r);
  });

  it('--json stays valid JSON with a kind for every file', () => {
    const names = ['no-such.spell', 'a-directory', ...Object.keys(HOSTILE)];
    const r = cantrip('check', '--json', ...names);
    const report = JSON.parse(r.stdout) as { files: { file: string; kind: string }[]; errors: number };
    expect(report.files.map((f) => f.file)).toEqual(names);
    expect(report.errors).toBe(names.length);
    expectClean(r);
  });
});

describe.each(['compile', 'disasm'])('cantrip %s on hostile input', (command) => {
  const out = (name: string): string[] => (command === 'compile' ? ['-o', `${name}.out.spb`] : []);

  // check (above) reads and compiles every hostile file; these confirm the other commands share that path.
  it.each(['garbage.spell', 'nul.spell', 'parens.spell'])('%s: the same exit code as run, a clean message, no output file', (name) => {
    const r = cantrip(command, name, ...out(name));
    expect(r.status).toBe(HOSTILE[name]!.status);
    expect(r.stdout + r.stderr).toMatch(HOSTILE[name]!.message);
    expect(fs.existsSync(path.join(tmp, `${name}.out.spb`))).toBe(false);
    expectClean(r);
  });

  it.each(['a-directory'])('%s: 66', (name) => {
    const r = cantrip(command, name, ...out(name));
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/cannot read/);
    expectClean(r);
  });
});

describe('cantrip run on inputs tests/cli does not cover', () => {
  it.skipIf(!HAS_PROC_MEM)('a file even root cannot read (/proc/self/mem): 66', () => {
    const r = cantrip('run', '/proc/self/mem');
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/cannot read '\/proc\/self\/mem'/);
    expectClean(r);
  });

  it.skipIf(!HAS_DEV_ZERO)('an endless device (/dev/zero): refused at the size limit, not read forever', () => {
    const r = cantrip('run', '/dev/zero');
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/larger than the 10 MB limit/);
    expectClean(r);
  });

  it('a symlink loop: 66', () => {
    const r = cantrip('run', 'loop-a');
    expect(r.status).toBe(66);
    expectClean(r);
  });

  it('random bytes behind a valid .spb header: a clean load error (65), for run and disasm', () => {
    const hello = cantrip('compile', 'hello.spell', '-o', 'hello.spb');
    expect(hello.status).toBe(0);
    const header = fs.readFileSync(path.join(tmp, 'hello.spb')).subarray(0, 8);
    for (let seed = 1; seed <= 3; seed++) {
      const name = file(`noise-${seed}.spb`, Buffer.concat([header, pseudoRandomBytes(2000, seed)]));
      for (const command of ['run', 'disasm']) {
        const r = cantrip(command, name);
        expect(r.status, `${command} ${name}`).toBe(65);
        expect(r.stderr).toMatch(/not valid Cantrip bytecode/);
        expectClean(r);
      }
    }
  });

  const DEEP = 100_000;
  const DEEP_SOURCES: [string, string][] = [
    ['if-statements', `${'if (true) '.repeat(DEEP)}print 1;`],
    ['while-loops', `${'while (false) '.repeat(DEEP)}print 1;`],
    ['for-loops', `${'for (;false;) '.repeat(DEEP)}print 1;`],
    ['bang-operators', `print ${'!'.repeat(DEEP)}true;`],
    ['minus-operators', `print ${'-'.repeat(DEEP)}1;`],
    ['list-brackets', `print ${'['.repeat(DEEP)}${']'.repeat(DEEP)};`],
    ['property-reads', `var a; print a${'.b'.repeat(DEEP)};`],
    ['calls', `fun f() { return f; } print f${'()'.repeat(DEEP)};`],
    ['assignments', `var a; ${'a = '.repeat(DEEP)}1;`],
    ['function-declarations', `${'fun f() {'.repeat(DEEP)}${'}'.repeat(DEEP)}`],
    ['class-bodies', `${'class A { m() {'.repeat(DEEP / 10)}${'} }'.repeat(DEEP / 10)}`],
    ['list-literal-elements', `var l = [${Array(DEEP).fill('1').join(', ')}];`],
  ];

  it('100,000-deep nesting of every construct that nests: a clean compile error per file (one check run)', () => {
    const names = DEEP_SOURCES.map(([what, source]) => file(`deep-${what}.spell`, source + '\n'));
    const fine = file('else-if.spell', `if (false) print 0; ${'else if (false) print 0; '.repeat(DEEP)}else print 1;\n`);
    const r = cantrip('check', ...names, fine);
    expect(r.status).toBe(65);
    for (const name of names) expect(r.stdout + r.stderr, name).toMatch(new RegExp(`${name}:1:\\d+: error: `));
    // 100,000 chained else-ifs are a chain, not nesting: no error.
    expect(r.stdout + r.stderr).not.toMatch(/else-if\.spell:\d+:\d+: error/);
    expectClean(r);
  });

  it('run prints the nesting error in clox format (65)', () => {
    const r = cantrip('run', file('deep-run.spell', `fun f() { return f; } print f${'()'.repeat(DEEP)};\n`));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/^\[line 1\] Error/);
    expectClean(r);
  });

  it('a 1 MB identifier and a 1 MB number literal run', () => {
    const id = 'a'.repeat(MB);
    expect(cantrip('run', file('long-id.spell', `var ${id} = 1;\nprint ${id} + 1;\n`))).toEqual({ status: 0, stdout: '2\n', stderr: '' });
    expect(cantrip('run', file('long-number.spell', `print ${'9'.repeat(MB)};\n`))).toEqual({ status: 0, stdout: 'inf\n', stderr: '' });
  });

  it('a runaway spell under --fuel ends with 70 and the clox trace, not a hang', () => {
    const r = cantrip('run', '--fuel', '100000', file('spin.spell', 'var s = "x";\nwhile (true) s = s;\n'));
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^Out of fuel.*\n\[line 2\] in script/);
    expectClean(r);
  });

  it('a heap bomb without --fuel ends with 70 (the heap budget still applies)', () => {
    const r = cantrip('run', file('bomb.spell', 'var s = "x";\nwhile (true) s = s + s;\n'));
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^Out of memory/);
    expectClean(r);
  });
});
