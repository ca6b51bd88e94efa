#!/usr/bin/env node
// `npm run vsix`: builds the VS Code extension into dist/cantrip-vscode.vsix,
// offline. Steps: rewrite the generated grammar and language configuration
// (grammar/generated-files.ts, loaded through Vite's module runner since it is
// TypeScript), bundle the extension's programs with esbuild (ENTRY_POINTS:
// the client, and the `cantrip` it starts as language server and debug
// adapter, each one CommonJS file with everything it uses), then package
// with @vscode/vsce.
// The extension is put together in a fresh temporary folder (STAGED_FILES and
// the bundles, which are not written into editors/vscode), so two builds at
// once — the vsix and package tests run side by side — never see each
// other's half-written files.
// `--generate-only` stops after the first step (after a lexicon change);
// `--no-generate` packages the committed files as they are, and `--out FILE`
// writes the .vsix elsewhere (the tests use both).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { runnerImport } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const vsixPath = outIndex >= 0 && args[outIndex + 1] ? resolve(args[outIndex + 1]) : join(root, 'dist/cantrip-vscode.vsix');

async function generate() {
  const { module } = await runnerImport(join(here, 'grammar/generated-files.ts'), { configFile: false, logLevel: 'warn' });
  for (const file of module.generatedFiles()) {
    const target = join(here, file.path);
    if (existsSync(target) && readFileSync(target, 'utf8') === file.text) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.text);
    console.log(`wrote ${relative(root, target)}`);
  }
}

/**
 * The programs the extension carries, each bundled into dist/NAME.js from
 * src/. Adding one is a line here and its name in vsix.test.ts's list of
 * packaged files. A command the client starts is not a program of its own:
 * it joins the list src/cantrip.ts runs, and server-location.ts names its
 * command line (LANGUAGE_SERVER, DEBUG_ADAPTER) — the commands share nearly
 * all their code, which a bundle each would carry twice.
 */
const ENTRY_POINTS = {
  extension: 'src/extension.ts', // the client VS Code loads (package.json "main")
  cantrip: 'src/cantrip.ts', // `cantrip lsp` and `cantrip dap`, which the client starts when the project has no cantrip-lang of its own
};

const require = createRequire(import.meta.url);

/**
 * The compiler loads chevrotain through a `require` made at run time
 * (compiler/chevrotain.ts), which no bundler can follow; in the bundle it is
 * chevrotain's own single-file build instead, imported like any module (as
 * bin/build-bundle.ts does for the CLI's bundle).
 */
const chevrotainSingleFile = {
  name: 'chevrotain-single-file',
  setup(builder) {
    const singleFile = join(dirname(require.resolve('chevrotain')), '..', 'chevrotain.mjs');
    builder.onResolve({ filter: /^\.\/chevrotain\.js$/ }, (args) => (args.importer.startsWith(join(root, 'compiler')) ? { path: singleFile } : undefined));
  },
};

/**
 * What the .vsix holds besides the bundles (dist/), from this folder: the
 * manifest, the README, the language configuration and the grammar. vsce
 * packages the staged folder as it is.
 */
const STAGED_FILES = ['package.json', 'README.md', 'language-configuration.json', 'syntaxes'];

async function bundle(stage) {
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, join(here, file)])),
    outdir: join(stage, 'dist'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    // VS Code 1.91 (package.json "engines") runs extensions, and the programs they start, on Electron 29's Node 20.9.
    target: 'node20.9',
    external: ['vscode'],
    minify: true,
    legalComments: 'none',
    plugins: [chevrotainSingleFile],
    // A CommonJS file has no import.meta: the library's modules that read import.meta.url get the bundle's own URL.
    banner: { js: 'var __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__bundleUrl' },
    logLevel: 'warning',
  });
}

function packageVsix(stage) {
  for (const file of STAGED_FILES) cpSync(join(here, file), join(stage, file), { recursive: true });
  // vsce wants a LICENSE beside the manifest: the repository's one.
  cpSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  mkdirSync(dirname(vsixPath), { recursive: true });
  rmSync(vsixPath, { force: true });
  const vsce = require.resolve('@vscode/vsce/vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsixPath], {
    cwd: stage,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`vsce package failed (exit ${result.status})`);
  }
  console.log(`built ${relative(process.cwd(), vsixPath)}`);
}

try {
  if (!args.includes('--no-generate')) await generate();
  if (!args.includes('--generate-only')) {
    const stage = mkdtempSync(join(tmpdir(), 'cantrip-vscode-'));
    try {
      await bundle(stage);
      packageVsix(stage);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
} catch (error) {
  process.stderr.write(`npm run vsix: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
