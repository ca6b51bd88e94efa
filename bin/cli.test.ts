/**
 * `main` in-process, with an in-memory file system: the paths through the
 * CLI that spawning the launcher (tests/cli) cannot reach cheaply.
 */
import { describe, expect, it } from 'vitest';
import { main, type CliIO } from './cli.js';
import { MAX_INPUT_BYTES } from './input.js';

interface Captured {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly written: Map<string, Uint8Array>;
}

async function cli(args: string[], files: Record<string, string | Uint8Array> = {}, overrides: Partial<CliIO> = {}): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const written = new Map<string, Uint8Array>();
  const io: CliIO = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readFile: (path) => {
      const content = files[path] ?? written.get(path);
      if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return typeof content === 'string' ? new TextEncoder().encode(content) : content;
    },
    writeFile: (path, data) => void written.set(path, data),
    ...overrides,
  };
  const exitCode = await main(args, io);
  return { exitCode, stdout, stderr, written };
}

describe('main', () => {
  it('runs a spell', async () => {
    const r = await cli(['run', 'a.spell'], { 'a.spell': 'print "hi";' });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'hi\n', '']);
  });

  it('explains why a file that only declares spells prints nothing under run', async () => {
    const r = await cli(['run', 'zap.spell'], { 'zap.spell': 'spell zap(caster, target) { damage(target, 1); }' });
    expect([r.exitCode, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toContain('zap.spell declares spells (zap)');
    expect(r.stderr).toContain('cantrip sim');
    const quiet = await cli(['run', 'both.spell'], { 'both.spell': 'spell zap(a, b) {} print "hi";' });
    expect([quiet.stdout, quiet.stderr]).toEqual(['hi\n', '']);
  });

  it('does not print warnings on run (clox prints none), but check does', async () => {
    const files = { 'w.spell': 'if (false) summon();\nprint "ok";' };
    const run = await cli(['run', 'w.spell'], files);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, 'ok\n', '']);
    const check = await cli(['check', 'w.spell'], files);
    expect(check.exitCode).toBe(0);
    expect(check.stdout).toContain("w.spell:1:12: warning: Undefined variable 'summon'.");
    expect(check.stdout).toContain('checked 1 file: 0 errors, 1 warning');
  });

  it('compiles to the default output path and runs the bytes it wrote', async () => {
    const compiled = await cli(['compile', 'dir/fire.spell'], { 'dir/fire.spell': 'print 6 * 7;' });
    expect(compiled.exitCode).toBe(0);
    const bytes = compiled.written.get('dir/fire.spb');
    expect(bytes).toBeInstanceOf(Uint8Array);
    const r = await cli(['run', 'renamed.anything'], { 'renamed.anything': bytes! });
    expect([r.exitCode, r.stdout]).toEqual([0, '42\n']);
  });

  it('appends .spb when the source has another extension', async () => {
    const r = await cli(['compile', 'fire.txt'], { 'fire.txt': 'print 1;' });
    expect([...r.written.keys()]).toEqual(['fire.txt.spb']);
  });

  it('turns an unexpected exception into "internal error" and exit 70, without a stack', async () => {
    const r = await cli(['--version'], {}, {
      stdout: () => {
        throw new TypeError('stdout exploded');
      },
    });
    expect(r.exitCode).toBe(70);
    expect(r.stderr).toMatch(/^cantrip: internal error: TypeError: stdout exploded\nThis is a bug in Cantrip/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a file bigger than the limit even if the reader returns it all', async () => {
    const r = await cli(['run', 'big.spell'], { 'big.spell': new Uint8Array(MAX_INPUT_BYTES + 1).fill(0x20) });
    expect(r.exitCode).toBe(66);
    expect(r.stderr).toMatch(/larger than the 10 MB limit/);
  });

  it('accepts a file of exactly the limit', async () => {
    const content = new Uint8Array(MAX_INPUT_BYTES).fill(0x20);
    content.set(new TextEncoder().encode('print "edge";'));
    const r = await cli(['run', 'edge.spell'], { 'edge.spell': content });
    expect([r.exitCode, r.stdout]).toEqual([0, 'edge\n']);
  });

  it('check reports each file and picks the most serious exit code', async () => {
    const r = await cli(['check', '--format', 'clox', 'good.spell', 'bad.spell', 'nul.spell'], {
      'good.spell': 'print 1;',
      'bad.spell': 'print ;',
      'nul.spell': 'print\0;',
    });
    expect(r.exitCode).toBe(65);
    expect(r.stdout).toBe(
      "bad.spell: [line 1] Error at ';': Expect expression.\ncantrip: nul.spell is not a text file (NUL byte at byte 5, line 1)\n",
    );
  });

  it('check and compile report a missing comma in a host call, not a misleading arity error', async () => {
    const files = { 'comma.spell': 'spell s(caster, target) {\n  damage(target 5);\n}\n' };
    const check = await cli(['check', '--format', 'clox', 'comma.spell'], files);
    expect([check.exitCode, check.stdout]).toEqual([65, "comma.spell: [line 2] Error at '5': Expect ')' after arguments.\n"]);
    const compiled = await cli(['compile', 'comma.spell'], files);
    expect([compiled.exitCode, compiled.stderr]).toEqual([65, "[line 2] Error at '5': Expect ')' after arguments.\n"]);
  });

  it('check --json marks files that are not text as invalid', async () => {
    const r = await cli(['check', '--json', 'bin.spell'], { 'bin.spell': new Uint8Array([0xff, 0xfe, 0x00]) });
    const report = JSON.parse(r.stdout) as { files: { kind: string; problem: string }[]; errors: number };
    expect(report.files[0]).toMatchObject({ kind: 'invalid', problem: expect.stringMatching(/invalid UTF-8 at byte 0/) });
    expect(report.errors).toBe(1);
    expect(r.exitCode).toBe(65);
  });

  it('a runtime error prints the clox trace on stderr after the output so far', async () => {
    const r = await cli(['run', 'e.spell'], { 'e.spell': 'print "a";\nfun f() { return -"x"; }\nf();' });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      70,
      'a\n',
      'Operand must be a number.\n[line 2] in f()\n[line 3] in script\n',
    ]);
  });

  it('a stack overflow prints its trace with the recursion collapsed, and still exits 70', async () => {
    const r = await cli(['run', 'deep.spell'], { 'deep.spell': 'fun f() { f(); }\nf();\n' });
    expect(r.exitCode).toBe(70);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toEqual(['Stack overflow.', '[line 1] in f()', expect.stringMatching(/^\[line 1\] in f\(\) — \d+ more times$/), '[line 2] in script']);
  });

  it('an unknown option is a usage error', async () => {
    const r = await cli(['check', '--colour', 'a.spell'], { 'a.spell': '' });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(/unknown option '--colour'/);
  });
});

describe('corrupted bytecode', () => {
  it('every single-byte corruption of a .spb is refused (65) or runs safely (0 / 70)', async () => {
    const source = 'class A { init(x) { this.x = x; } }\nvar l = [A(1), A(2)];\nfor (a in l) print a.x * 2;\n';
    const compiled = await cli(['compile', 'c.spell'], { 'c.spell': source });
    const bytes = compiled.written.get('c.spb')!;
    for (let i = 0; i < bytes.length; i++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const corrupted = Uint8Array.from(bytes);
        corrupted[i] = corrupted[i]! ^ mask;
        const r = await cli(['run', '--fuel', '10000', 'c.spb'], { 'c.spb': corrupted });
        expect([0, 65, 70], `byte ${i} ^ ${mask}: ${r.stderr}`).toContain(r.exitCode);
        expect(r.stderr).not.toMatch(/internal error/);
      }
    }
  });
});
