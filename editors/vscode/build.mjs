#!/usr/bin/env node
// `npm run vsix`: builds the VS Code extension into dist/cantrip-vscode.vsix,
// offline. Steps: rewrite the generated grammar and language configuration
// (grammar/generated-files.ts, loaded through Vite's module runner since it is
// TypeScript), bundle the client into one CommonJS file with `vscode` left
// external, then package with @vscode/vsce.
// `--generate-only` stops after the first step (after a lexicon change);
// `--no-generate` packages the committed files as they are, and `--out FILE`
// writes the .vsix elsewhere (the tests use both).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, runnerImport } from 'vite';

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

async function bundle() {
  await build({
    configFile: false,
    root: here,
    logLevel: 'warn',
    build: {
      // Node built-ins stay external in an SSR build; everything else (the language client) is bundled.
      ssr: join(here, 'src/extension.ts'),
      outDir: join(here, 'dist'),
      emptyOutDir: true,
      target: 'node20',
      minify: true,
      sourcemap: false,
      rolldownOptions: {
        external: ['vscode'],
        output: { format: 'cjs', entryFileNames: 'extension.js' },
        checks: { bundlerTimings: false },
      },
    },
    ssr: { noExternal: true, external: ['vscode'], target: 'node' },
  });
}

function packageVsix() {
  // vsce wants a LICENSE beside the manifest; the repository's one is copied in (and ignored by git).
  copyFileSync(join(root, 'LICENSE'), join(here, 'LICENSE'));
  mkdirSync(dirname(vsixPath), { recursive: true });
  rmSync(vsixPath, { force: true });
  const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsixPath], {
    cwd: here,
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
    await bundle();
    packageVsix();
  }
} catch (error) {
  process.stderr.write(`npm run vsix: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
