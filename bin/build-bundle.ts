/**
 * The CLI as one CommonJS bundle with V8 code caches, so `cantrip run` starts
 * fast (docs/decisions.md, "The CLI starts from a bundle"). Run by
 * `npm run build` after tsc, from the compiled files in dist/:
 *
 *   dist/bin/bundle/manifest.json   which file is the entry
 *   dist/bin/bundle/cli-HASH.cjs    the CLI (every command, its declaration and its work)
 *   dist/bin/bundle/NAME-HASH.cjs   chunks a command loads when it runs (the VM, the compiler…)
 *   dist/bin/bundle/*.cjs.cache     V8's code cache of each file, written by running a sample spell
 *
 * The npm dependencies stay outside (required from node_modules as usual),
 * except commander and chevrotain, which every command needs. Every file
 * name carries a hash of its content, so a cache can only ever belong to the
 * text it was made from. bin/cantrip.js loads the bundle when it is there and
 * not older than dist/bin/cli.js, and the plain ES modules of dist/ otherwise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = fileURLToPath(new URL('../', import.meta.url));
const root = join(dist, '..');
const outDir = join(dist, 'bin', 'bundle');

/** What bin/cantrip.js reads to find the entry. */
export interface BundleManifest {
  readonly entry: string;
}

/** Run on the bundle once, so the code caches hold the compiler and VM functions a run needs. */
const WARM_UP_SPELL = `
class Shape { init(name) { this.name = name; } area() { return 0; } }
class Square < Shape { init(side) { super.init("square"); this.side = side; } area() { return this.side * this.side; } }
fun counter() { var n = 0; fun next() { n += 1; return n; } return next; }
var next = counter();
var shapes = [Square(2), Square(3)];
var total = 0;
for (s in shapes) total += s.area();
for (var i = 0; i < 3; i = i + 1) { if (i % 2 == 0 and !false) next(); else total = total - 1; }
while (total > 100) total = total / 2;
var names = {"a": 1, "b": nil};
print \`\${shapes[0].name}: \${total} \${next()} \${len(shapes)} \${names["a"]}\`;
print "done" + "!";
`;

/** An `import(` in code, not in a comment line (commander's JSDoc has some). */
const DYNAMIC_IMPORT = /^(?!\s*(?:\*|\/\/)).*(?<![\w$.])import\(/m;

async function main(): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
  const bundled = new Set(['commander', 'chevrotain']);
  // The zone server's packages are optional peer dependencies: required from the user's node_modules when `serve` runs.
  const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].filter((name) => !bundled.has(name));
  // The single-file build of chevrotain that compiler/chevrotain.ts loads under Node, imported directly.
  const chevrotainBundle = join(dirname(createRequire(import.meta.url).resolve('chevrotain')), '..', 'chevrotain.mjs');
  const chevrotainShim = '\0cantrip-chevrotain';

  rmSync(outDir, { recursive: true, force: true });
  const output = await build({
    input: { cli: join(dist, 'bin', 'cli.js') },
    platform: 'node',
    external: (id) => external.some((name) => id === name || id.startsWith(name + '/')),
    plugins: [
      {
        name: 'cantrip-chevrotain',
        resolveId(id, importer) {
          if (importer?.startsWith(join(dist, 'compiler')) && id === './chevrotain.js') return chevrotainShim;
          return null;
        },
        load(id) {
          if (id !== chevrotainShim) return null;
          return `export * from ${JSON.stringify(chevrotainBundle)};`;
        },
      },
    ],
    output: {
      dir: outDir,
      format: 'cjs',
      entryFileNames: '[name]-[hash].cjs',
      chunkFileNames: '[name]-[hash].cjs',
      // `import()` of a package becomes `require()`: V8 cannot run a dynamic import from code restored out of a code cache.
      dynamicImportInCjs: false,
      // Whitespace and comments only (a third of the bundle): names and code stay as written (docs/decisions.md, "The install").
      minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
    },
    checks: { bundlerTimings: false },
    logLevel: 'silent',
  });
  const entry = output.output.find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
  if (entry === undefined) throw new Error('the bundle has no entry');
  for (const chunk of output.output) {
    if (chunk.type === 'chunk' && DYNAMIC_IMPORT.test(chunk.code)) throw new Error(`${chunk.fileName} still has a dynamic import()`);
  }
  const manifest: BundleManifest = { entry: entry.fileName };
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest) + '\n');
  writeCodeCaches();
}

/** Runs the bundle on a sample spell through bin/cantrip.js, which writes each loaded file's code cache when asked to. */
function writeCodeCaches(): void {
  const dir = mkdtempSync(join(tmpdir(), 'cantrip-bundle-'));
  try {
    const spell = join(dir, 'warm-up.spell');
    writeFileSync(spell, WARM_UP_SPELL);
    const result = spawnSync(process.execPath, [join(root, 'bin', 'cantrip.js'), 'run', spell], {
      encoding: 'utf8',
      env: { ...process.env, CANTRIP_WRITE_CODE_CACHE: '1' },
    });
    if (result.status !== 0 || !result.stdout.startsWith('square: 12 3 2 1\n')) {
      throw new Error(`the bundled CLI did not run its sample spell (exit ${result.status}): ${result.stderr || result.stdout}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`build-bundle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
