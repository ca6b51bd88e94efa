#!/usr/bin/env node
// The `cantrip` executable: a tiny launcher for the compiled CLI, so starting
// it never needs a TypeScript loader. Output to stdout is buffered and flushed
// in large writes, because spells that print in a loop would otherwise spend
// their time in write(2).
//
// It starts the CLI from dist/bin/bundle/ (one CommonJS bundle with V8 code
// caches, made by `npm run build`: bin/build-bundle.ts) when that is there
// and not older than the compiled modules, else from the ES modules of
// dist/bin/ — the same code, only slower to start. The npm package ships
// the bundle alone (package.json "files"): there, no compiled modules of
// dist/bin/ can be newer than it.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const cliUrl = new URL('../dist/bin/cli.js', import.meta.url);
const bundleDir = fileURLToPath(new URL('../dist/bin/bundle/', import.meta.url));

// `cantrip run x.spell | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`cantrip: cannot write output: ${error.message}\n`);
  process.exit(74);
});

const bundleManifest = join(bundleDir, 'manifest.json');
if (!existsSync(cliUrl) && !existsSync(bundleManifest)) {
  process.stderr.write('Cantrip is not built yet: run `npm run build`.\n');
  process.exitCode = 70;
} else {
  const writeCodeCache = process.env.CANTRIP_WRITE_CODE_CACHE === '1';
  const bundle = openBundle(writeCodeCache);
  let main = bundle?.main;
  if (main === undefined) {
    try {
      ({ main } = await import(cliUrl.href));
    } catch (error) {
      process.stderr.write(`Cantrip's build is broken (${error?.message ?? error}): run \`npm run build\`.\n`);
      process.exitCode = 70;
    }
  }
  if (main) process.exitCode = await runBuffered(main);
  if (writeCodeCache) bundle?.writeCodeCaches();
}

/**
 * The bundle's `main`, or undefined when there is no usable bundle: none
 * built, older than dist/bin/cli.js (tsc ran since), or a file that does
 * not load. The bundle has no `import()` (bin/build-bundle.ts turns them
 * into `require`), so its scripts need no dynamic-import callback.
 */
function openBundle(writeCodeCache) {
  let entry;
  try {
    entry = join(bundleDir, JSON.parse(readFileSync(bundleManifest, 'utf8')).entry);
    // tsc rewrites every file, so a dist/bin/cli.js newer than the bundle means tsc ran after it was made.
    // (Two seconds of slack: an installer may write a package's files in any order, a moment apart.)
    if (existsSync(cliUrl) && statSync(cliUrl).mtimeMs > statSync(entry).mtimeMs + 2000) return undefined;
  } catch {
    return undefined;
  }
  const nodeRequire = createRequire(entry);
  const modules = new Map();
  const scripts = [];
  // A bundle file is CommonJS; its `require('./x.cjs')` are its other files, anything else is a package.
  const load = (file) => {
    const known = modules.get(file);
    if (known !== undefined) return known.exports;
    const source = readFileSync(file, 'utf8');
    const cachedData = writeCodeCache ? undefined : readIfThere(file + '.cache');
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      cachedData,
    });
    const module = { exports: {} };
    modules.set(file, module);
    scripts.push({ file, script });
    const require = (id) => (id.startsWith('./') ? load(join(dirname(file), id)) : nodeRequire(id));
    script.runInThisContext().call(module.exports, module.exports, require, module, file, dirname(file));
    return module.exports;
  };
  try {
    return {
      main: load(entry).main,
      writeCodeCaches() {
        for (const { file, script } of scripts) writeFileSync(file + '.cache', script.createCachedData());
      },
    };
  } catch {
    return undefined;
  }
}

function readIfThere(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

async function runBuffered(main) {
  let pending = [];
  let pendingLength = 0;
  const flush = () => {
    if (pending.length === 0) return;
    process.stdout.write(pending.join(''));
    pending = [];
    pendingLength = 0;
  };
  const io = {
    stdout(text) {
      pending.push(text);
      pendingLength += text.length;
      if (pendingLength >= 1 << 16) flush();
    },
    stderr(text) {
      flush();
      process.stderr.write(text);
    },
  };
  const code = await main(process.argv.slice(2), io);
  flush();
  return code;
}
