/**
 * The real `cantrip` executable, spawned as a user would run it (needs
 * `npm run build` first; `npm test` builds before running vitest). These
 * cover what in-process tests cannot: the launcher, exit codes seen by the
 * shell, files on disk, and that no hostile input ever produces a JS stack
 * trace.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LAUNCHER = path.join(REPO, 'bin', 'cantrip.js');
const MB = 1024 * 1024;

interface Result {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cantrip(...args: string[]): Result {
  const r = spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 * MB,
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A JS stack frame line ("    at foo (file.js:1:2)") must never reach a user. */
function expectNoStackTrace(r: Result): void {
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr).not.toMatch(/internal error/);
}

let tmp: string;
function file(name: string, content: string | Uint8Array): string {
  const p = path.join(tmp, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cantrip-cli-'));
  if (!fs.existsSync(path.join(REPO, 'dist', 'bin', 'cli.js'))) {
    throw new Error('dist/bin/cli.js is missing: run `npm run build` before these tests (npm test does).');
  }
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('cantrip run', () => {
  it('runs spells/hello.spell', () => {
    const r = cantrip('run', 'spells/hello.spell');
    expect(r).toEqual({
      status: 0,
      stdout:
        'Hello, apprentice!\n  fire (power 3)\n  ice (power 2)\n  storm (power 5)\nYour runes hold 10 power in all.\n',
      stderr: '',
    });
  });

  it('prints compile errors in clox format and exits 65', () => {
    const r = cantrip('run', file('compile-error.spell', 'print 1 + ;\nprint (2;\n'));
    expect(r.status).toBe(65);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("[line 1] Error at ';': Expect expression.\n[line 2] Error at ';': Expect ')' after expression.\n");
  });

  it('prints runtime errors with the call stack and exits 70', () => {
    const source = 'fun inner() {\n  return 1 + nil;\n}\nfun outer() { inner(); }\nprint "before";\nouter();\n';
    const r = cantrip('run', file('runtime-error.spell', source));
    expect(r).toEqual({
      status: 70,
      stdout: 'before\n',
      stderr: 'Operands must be two numbers or two strings.\n[line 2] in inner()\n[line 4] in outer()\n[line 6] in script\n',
    });
  });

  it('stops an infinite loop with --fuel and exits 70', () => {
    const r = cantrip('run', '--fuel', '10000', file('loop.spell', 'while (true) {}\n'));
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^Out of fuel.*\n\[line 1\] in script\n$/);
  });

  it("runs the book's allocation-heavy benchmarks to the end: the heap budget counts what a script keeps, not what it made", () => {
    const trees = cantrip('run', 'tests/cli/book/binary_trees.lox');
    expect(trees.stderr).toBe('');
    expect(trees.status).toBe(0);
    expect(trees.stdout).toMatch(/^long lived tree of depth:\n14\ncheck:\n-1\nelapsed:\n[\d.e-]+\n$/m);
    const instances = cantrip('run', 'tests/cli/book/instantiation.lox');
    expect(instances.stderr).toBe('');
    expect(instances.status).toBe(0);
    expect(instances.stdout).toMatch(/^[\d.e-]+\n$/);
  }, 120_000);

  it('stops a script that keeps too much with the memory message (exit 70), at --max-heap or the default', () => {
    const hoard = file('hoard.spell', 'var keep = [];\nwhile (true) keep.append(1);\n');
    const small = cantrip('run', '--max-heap', '1000', hoard);
    expect(small.status).toBe(70);
    expect(small.stderr).toBe('Out of memory: the script keeps more than 1000 heap units alive (list elements, string characters, objects).\n[line 2] in script\n');
    const doubling = cantrip('run', file('double.spell', 'var s = "ab";\nwhile (true) s = s + s;\n'));
    expect(doubling.status).toBe(70);
    expect(doubling.stderr).toMatch(/^Out of memory: the script keeps more than 16000000 heap units alive .*\n\[line 2\] in script\n$/);
    for (const bad of ['abc', '-5', '0', '1.5']) {
      const r = cantrip('run', `--max-heap=${bad}`, hoard);
      expect(r.status, bad).toBe(64);
      expect(r.stderr, bad).toMatch(/max-heap must be a positive whole number/);
    }
  });

  it('rejects a malformed --fuel as a usage error (64)', () => {
    for (const bad of ['abc', '-5', '0', '1.5']) {
      const r = cantrip('run', `--fuel=${bad}`, 'spells/hello.spell');
      expect(r.status, bad).toBe(64);
      expect(r.stderr, bad).toMatch(/fuel/);
    }
  });

  it('runs an empty file as an empty program', () => {
    expect(cantrip('run', file('empty.spell', ''))).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('prints a list that contains itself without hanging', () => {
    const r = cantrip('run', file('self.spell', 'var a = [1];\na.append(a);\nprint a;\n'));
    expect(r).toEqual({ status: 0, stdout: '[1, [...]]\n', stderr: '' });
  });

  it('accepts a byte-order mark and CRLF line endings', () => {
    const r = cantrip('run', file('bom.spell', '\uFEFFprint "bom";\r\nprint 2;\r\n'));
    expect(r).toEqual({ status: 0, stdout: 'bom\n2\n', stderr: '' });
  });
});

describe('usage errors exit 64', () => {
  it.each([
    ['no command', []],
    ['an unknown command', ['frobnicate']],
    ['an unknown option', ['run', '--frobnicate', 'spells/hello.spell']],
    ['a missing argument', ['run']],
    ['too many arguments', ['run', 'spells/hello.spell', 'extra.spell']],
    ['a bad --format', ['check', '--format', 'xml', 'spells/hello.spell']],
  ])('%s', (_name, args) => {
    const r = cantrip(...args);
    expect(r.status).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toBe('');
    expectNoStackTrace(r);
  });
});

describe('--help and --version', () => {
  it('prints the version from package.json', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(cantrip('--version')).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lists every command', () => {
    const r = cantrip('--help');
    expect(r.status).toBe(0);
    for (const command of ['run', 'compile', 'check', 'disasm']) expect(r.stdout).toContain(command);
  });

  it('has help for each command', () => {
    const r = cantrip('help', 'run');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--fuel');
  });
});

describe('hostile input', () => {
  it('a nonexistent path: 66', () => {
    const r = cantrip('run', path.join(tmp, 'no-such-file.spell'));
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/cannot read .*no-such-file\.spell.*no such file/);
    expectNoStackTrace(r);
  });

  it('a directory: 66', () => {
    const r = cantrip('run', tmp);
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/is a directory/);
    expectNoStackTrace(r);
  });

  // Root reads any file whatever its mode, so the check means nothing there.
  const isRoot = process.getuid?.() === 0;
  it.skipIf(isRoot)('an unreadable file: 66', () => {
    const p = file('unreadable.spell', 'print 1;\n');
    fs.chmodSync(p, 0o000);
    const r = cantrip('run', p);
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/permission denied/);
    expectNoStackTrace(r);
  });

  it('binary garbage: 65, not a text file', () => {
    const garbage = new Uint8Array(4096);
    let seed = 12345;
    for (let i = 0; i < garbage.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      garbage[i] = seed >> 16;
    }
    const r = cantrip('run', file('garbage.spell', garbage));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/is not a text file/);
    expectNoStackTrace(r);
  });

  it('a .spb file that is not bytecode: 65, said as such (not read as a spell)', () => {
    const r = cantrip('run', file('text.spb', 'print 1;\n'));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/text\.spb is not Cantrip bytecode: it does not start with the \.spb header/);
    expectNoStackTrace(r);
  });

  it('a NUL byte: 65 with its position', () => {
    const r = cantrip('run', file('nul.spell', 'print 1;\nprint "a\0b";\n'));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/not a text file \(NUL byte at byte 17, line 2\)/);
    expectNoStackTrace(r);
  });

  it('invalid UTF-8: 65 with its position', () => {
    const bytes = Buffer.concat([Buffer.from('print "caf'), Buffer.from([0xc3, 0x28]), Buffer.from('";\n')]);
    const r = cantrip('run', file('latin1.spell', bytes));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/not a text file \(invalid UTF-8 at byte 10, line 1\)/);
    expectNoStackTrace(r);
  });

  it.each([10_000, 100_000])('%i nested parentheses: a clean compile error (65)', (depth) => {
    const r = cantrip('run', file(`parens-${depth}.spell`, `print ${'('.repeat(depth)}1${')'.repeat(depth)};\n`));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/^\[line 1\] Error/);
    expect(r.stderr.split('\n').length).toBeLessThan(10);
    expectNoStackTrace(r);
  });

  it('100,000 nested blocks: a clean compile error (65)', () => {
    const r = cantrip('run', file('blocks.spell', `${'{'.repeat(100_000)}print 1;${'}'.repeat(100_000)}\n`));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/^\[line 1\] Error/);
    expectNoStackTrace(r);
  });

  it('100,000 chained operators: no crash', () => {
    const r = cantrip('run', file('chain.spell', `print 1${' + 1'.repeat(100_000)};\n`));
    expect([0, 65]).toContain(r.status);
    if (r.status === 0) expect(r.stdout).toBe('100001\n');
    expectNoStackTrace(r);
  });

  it('a 1 MB string literal works', () => {
    const r = cantrip('run', file('big-string.spell', `var s = "${'x'.repeat(MB)}";\nprint len(s);\n`));
    expect(r).toEqual({ status: 0, stdout: `${MB}\n`, stderr: '' });
  });

  it('a 1 MB string literal with an error after it shows a short code frame in check', () => {
    const r = cantrip('check', file('big-string-error.spell', `var s = "${'x'.repeat(MB)}" +;\n`));
    expect(r.status).toBe(65);
    expect(r.stdout.length).toBeLessThan(2000);
    expect(r.stdout).toContain('Expect expression.');
  });

  it('a 10 MB file works', () => {
    const head = 'print "ten megabytes";\n';
    const content = head + '//' + 'x'.repeat(10 * MB - head.length - 2);
    expect(content.length).toBe(10 * MB);
    const r = cantrip('run', file('ten.spell', content));
    expect(r).toEqual({ status: 0, stdout: 'ten megabytes\n', stderr: '' });
  });

  it('a file over 10 MB is refused cleanly (66)', () => {
    const r = cantrip('run', file('eleven.spell', '//' + 'x'.repeat(10 * MB)));
    expect(r.status).toBe(66);
    expect(r.stderr).toMatch(/larger than the 10 MB limit/);
    expectNoStackTrace(r);
  });
});

describe('compile, run and disasm bytecode', () => {
  it('compiles to .spb next to the source by default and runs it', () => {
    const source = file('fire.spell', fs.readFileSync(path.join(REPO, 'spells', 'hello.spell')));
    expect(cantrip('compile', source)).toEqual({ status: 0, stdout: '', stderr: '' });
    const spb = path.join(tmp, 'fire.spb');
    expect(fs.existsSync(spb)).toBe(true);
    expect(cantrip('run', spb)).toEqual(cantrip('run', source));
  });

  it('writes to -o and detects bytecode by its magic number, not its name', () => {
    const out = path.join(tmp, 'renamed.txt');
    const r = cantrip('compile', file('two.spell', 'print 1 + 1;\n'), '-o', out);
    expect(r.status).toBe(0);
    expect(cantrip('run', out)).toEqual({ status: 0, stdout: '2\n', stderr: '' });
  });

  it('refuses to compile bytecode again (65)', () => {
    const out = path.join(tmp, 'again.spb');
    cantrip('compile', file('again.spell', 'print 1;\n'), '-o', out);
    const r = cantrip('compile', out, '-o', path.join(tmp, 'again2.spb'));
    expect(r.status).toBe(65);
    expect(r.stderr).toMatch(/already compiled/);
  });

  it('cannot write the output: 73', () => {
    const r = cantrip('compile', file('nowhere.spell', 'print 1;\n'), '-o', path.join(tmp, 'no', 'such', 'dir.spb'));
    expect(r.status).toBe(73);
    expect(r.stderr).toMatch(/cannot write/);
    expectNoStackTrace(r);
  });

  it('does not write anything when the source has errors', () => {
    const out = path.join(tmp, 'broken.spb');
    const r = cantrip('compile', file('broken.spell', 'print ;\n'), '-o', out);
    expect(r.status).toBe(65);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('disassembles source and bytecode alike', () => {
    const source = file('dis.spell', 'fun add(a, b) { return a + b; }\nprint add(1, 2);\n');
    const spb = path.join(tmp, 'dis.spb');
    cantrip('compile', source, '-o', spb);
    const fromSource = cantrip('disasm', source);
    expect(fromSource.status).toBe(0);
    expect(fromSource.stdout).toMatch(/ADD/);
    expect(fromSource.stdout).toMatch(/PRINT/);
    expect(fromSource.stdout).toMatch(/add/);
    expect(cantrip('disasm', spb)).toEqual(fromSource);
  });

  it('runs alike on every tier, and refuses an unknown one (64)', () => {
    const source = file('tiers.spell', 'fun f(n) { if (n < 2) return n; return f(n - 1) + f(n - 2); }\nprint f(20);\nprint f("x");\n');
    const auto = cantrip('run', source);
    expect(auto.status).toBe(70);
    expect(auto.stdout).toBe('6765\n');
    for (const tier of ['interpreter', 'compiled']) expect(cantrip('run', '--tier', tier, source)).toEqual(auto);
    const bad = cantrip('run', '--tier', 'turbo', source);
    expect(bad.status).toBe(64);
    expect(bad.stderr).toMatch(/tier must be one of auto, interpreter, compiled/);
    expectNoStackTrace(bad);
  });

  it('prints the compiled tier\'s JavaScript of each function with --compiled, the spell\'s strings left out', () => {
    const source = file('js.spell', 'fun shout(s) { return s + "!!"; }\nprint shout("quietly");\n');
    const r = cantrip('disasm', '--compiled', source);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\/\/ == <script> \(function 0, \d+ words\)$/m);
    expect(r.stdout).toMatch(/^\/\/ == shout \(function 1, \d+ words\)$/m);
    expect(r.stdout).toMatch(/function compiled_1\(vm, fiber, closure, base, ip, sp\)/);
    expect(r.stdout).not.toContain('quietly');
  });

  it('a truncated .spb is a clean load error (65)', () => {
    const spb = path.join(tmp, 'whole.spb');
    cantrip('compile', file('whole.spell', 'print "whole";\n'), '-o', spb);
    const bytes = fs.readFileSync(spb);
    for (const cut of [8, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const truncated = file(`cut-${cut}.spb`, bytes.subarray(0, cut));
      for (const command of ['run', 'disasm']) {
        const r = cantrip(command, truncated);
        expect(r.status, `${command} cut at ${cut}`).toBe(65);
        expect(r.stderr).toMatch(/is not valid Cantrip bytecode/);
        expectNoStackTrace(r);
      }
    }
  });

  it('a .spb with a corrupted body is refused or runs safely', () => {
    const spb = path.join(tmp, 'flip.spb');
    cantrip('compile', file('flip.spell', 'var a = [1, 2];\nfor (x in a) print x * 2;\n'), '-o', spb);
    const bytes = fs.readFileSync(spb);
    for (let i = 8; i < bytes.length; i += Math.max(1, Math.floor(bytes.length / 6))) {
      const flipped = Buffer.from(bytes);
      flipped[i] = flipped[i]! ^ 0xff;
      const r = cantrip('run', '--fuel', '100000', file(`flip-${i}.spb`, flipped));
      expect([0, 65, 70], `byte ${i}`).toContain(r.status);
      expectNoStackTrace(r);
    }
  });
});

describe('cantrip fmt', () => {
  it('finds every example spell formatted, given the folder', () => {
    const spells = fs.readdirSync(path.join(REPO, 'spells'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.spell'));
    expect(cantrip('fmt', '--check', 'spells/')).toEqual({ status: 0, stdout: '', stderr: `${spells.length} files checked, 0 would change\n` });
  });

  it('formats, checks and rewrites a file, and refuses one with syntax errors', () => {
    const messy = file('messy.spell', 'print 1+2;\n');
    const broken = file('broken.spell', 'print 1\nprint 2;\n');
    expect(cantrip('fmt', messy)).toEqual({ status: 0, stdout: 'print 1 + 2;\n', stderr: '' });
    expect(cantrip('fmt', '--check', messy)).toEqual({ status: 1, stdout: messy + '\n', stderr: '1 file checked, 1 would change\n' });
    const r = cantrip('fmt', '--write', broken, messy);
    expect(r.status).toBe(65);
    expect(r.stderr).toContain(`${broken}:1:8: error: Expect ';' after value.`);
    expectNoStackTrace(r);
    expect(fs.readFileSync(messy, 'utf8')).toBe('print 1 + 2;\n');
  });
});

describe('cantrip check', () => {
  it('checks the .spell files of a folder and its subfolders, not those in node_modules', () => {
    file('checked/ok.spell', 'print 1;\n');
    const broken = file('checked/sub/broken.spell', 'print ;\n');
    file('checked/node_modules/pkg/ignored.spell', 'print ;\n');
    const r = cantrip('check', '--format', 'clox', path.join(tmp, 'checked'));
    expect(r).toEqual({ status: 65, stdout: `${broken}: [line 1] Error at ';': Expect expression.\n`, stderr: '' });
    expect(cantrip('check', path.join(tmp, 'checked')).stdout).toMatch(/checked 2 files: 1 error, 0 warnings\n$/);
  });

  it('shows a code frame with carets under the token', () => {
    const f = file('frame.spell', 'var ok = 1;\nprint ok +;\n');
    const r = cantrip('check', f);
    expect(r.status).toBe(65);
    expect(r.stdout).toBe(
      `${f}:2:11: error: Expect expression.\n 2 | print ok +;\n   |           ^\n\nchecked 1 file: 1 error, 0 warnings\n`,
    );
  });

  it('warns where a string and a number are added', () => {
    const f = file('zap.spell', 'var dmg = 3;\nprint "Zap did " + dmg;\n');
    const r = cantrip('check', f);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`${f}:2:7: warning: Adding a string and a number is an error when it runs`);
    expect(r.stdout).toContain('write a template string: `Zap did ${dmg}`');
  });

  it('reports several files, with warnings, and exits 0 when there are no errors', () => {
    const r = cantrip('check', 'spells/hello.spell', file('clean.spell', 'print 1;\n'));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/checked 2 files: 0 errors/);
  });

  it('prints JSON with --json', () => {
    const f = file('json.spell', 'print 1 +;\nprint (2;\n');
    const r = cantrip('check', '--json', f, path.join(tmp, 'missing.spell'));
    expect(r.status).toBe(66);
    const report = JSON.parse(r.stdout) as {
      files: { file: string; kind: string; problem?: string; diagnostics: { severity: string; line: number; message: string }[] }[];
      errors: number;
    };
    expect(report.files[0]!.diagnostics.map((d) => [d.severity, d.line, d.message])).toEqual([
      ['error', 1, 'Expect expression.'],
      ['error', 2, "Expect ')' after expression."],
    ]);
    expect(report.files[1]!.kind).toBe('unreadable');
    expect(report.files[1]!.problem).toMatch(/no such file/);
    expect(report.errors).toBe(3);
  });

  it('prints clox lines with --format clox', () => {
    const f = file('clox.spell', 'print 1 +;\n');
    const r = cantrip('check', '--format', 'clox', f);
    expect(r).toEqual({ status: 65, stdout: `${f}: [line 1] Error at ';': Expect expression.\n`, stderr: '' });
  });

  it('verifies .spb files', () => {
    const spb = path.join(tmp, 'checked.spb');
    cantrip('compile', file('checked.spell', 'print 1;\n'), '-o', spb);
    expect(cantrip('check', spb).status).toBe(0);
    const cut = file('checked-cut.spb', fs.readFileSync(spb).subarray(0, 12));
    const r = cantrip('check', cut);
    expect(r.status).toBe(65);
    expect(r.stdout).toMatch(/not valid Cantrip bytecode/);
  });
});

describe('the launcher', () => {
  it('says how to build when dist/ is missing (70)', () => {
    const fake = fs.mkdtempSync(path.join(tmp, 'unbuilt-'));
    fs.mkdirSync(path.join(fake, 'bin'));
    fs.copyFileSync(LAUNCHER, path.join(fake, 'bin', 'cantrip.js'));
    const r = spawnSync(process.execPath, [path.join(fake, 'bin', 'cantrip.js'), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(70);
    expect(r.stderr).toBe('Cantrip is not built yet: run `npm run build`.\n');
  });

  describe('starts from the bundle `npm run build` makes, else from the ES modules of dist/', () => {
    const hello = path.join(REPO, 'spells', 'hello.spell');
    /** A copy of the package whose dist/ links to the real one, but for dist/bin/cli.js and dist/bin/bundle/, as given. */
    function fakePackage(options: { cli: 'real' | 'broken'; cliTime?: Date; bundle: boolean }): string {
      const fake = fs.mkdtempSync(path.join(tmp, 'package-'));
      fs.mkdirSync(path.join(fake, 'bin'));
      fs.copyFileSync(LAUNCHER, path.join(fake, 'bin', 'cantrip.js'));
      fs.copyFileSync(path.join(REPO, 'package.json'), path.join(fake, 'package.json'));
      fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(fake, 'node_modules'));
      fs.mkdirSync(path.join(fake, 'dist', 'bin'), { recursive: true });
      for (const entry of fs.readdirSync(path.join(REPO, 'dist'))) {
        if (entry !== 'bin') fs.symlinkSync(path.join(REPO, 'dist', entry), path.join(fake, 'dist', entry));
      }
      for (const entry of fs.readdirSync(path.join(REPO, 'dist', 'bin'))) {
        if (entry === 'cli.js' || (entry === 'bundle' && !options.bundle)) continue;
        fs.symlinkSync(path.join(REPO, 'dist', 'bin', entry), path.join(fake, 'dist', 'bin', entry));
      }
      const cli = path.join(fake, 'dist', 'bin', 'cli.js');
      if (options.cli === 'real') fs.symlinkSync(path.join(REPO, 'dist', 'bin', 'cli.js'), cli);
      else fs.writeFileSync(cli, "throw new Error('the ES modules were loaded');\n");
      if (options.cliTime) fs.utimesSync(cli, options.cliTime, options.cliTime);
      return fake;
    }
    const launch = (fake: string) =>
      spawnSync(process.execPath, [path.join(fake, 'bin', 'cantrip.js'), 'run', hello], { encoding: 'utf8' });

    it('runs from the bundle (the ES modules are never loaded)', () => {
      expect(fs.existsSync(path.join(REPO, 'dist', 'bin', 'bundle', 'manifest.json'))).toBe(true);
      const r = launch(fakePackage({ cli: 'broken', cliTime: new Date('2000-01-01'), bundle: true }));
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Hello, apprentice!\n/);
      expect(r.status).toBe(0);
    });

    it('runs from the ES modules without a bundle', () => {
      const r = launch(fakePackage({ cli: 'real', bundle: false }));
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Hello, apprentice!\n/);
    });

    it('leaves a bundle older than dist/bin/cli.js alone (tsc ran after it)', () => {
      const r = launch(fakePackage({ cli: 'broken', cliTime: new Date(Date.now() + 60_000), bundle: true }));
      expect(r.status).toBe(70);
      expect(r.stderr).toBe("Cantrip's build is broken (the ES modules were loaded): run `npm run build`.\n");
    });
  });

  it('is what `npx cantrip` runs from the repository', () => {
    const r = spawnSync('npx', ['--no-install', 'cantrip', 'run', 'spells/hello.spell'], { cwd: REPO, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Hello, apprentice!\n/);
  });

  it('is executable', () => {
    expect(fs.statSync(LAUNCHER).mode & 0o111).not.toBe(0);
  });

  it('does not fail when the reader closes the pipe early', () => {
    const f = file('many.spell', 'for (var i = 0; i < 200000; i = i + 1) print i;\n');
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${LAUNCHER}" run "${f}" | head -n 1`], {
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('0\n');
    expect(r.stderr).toBe('');
  });
});
