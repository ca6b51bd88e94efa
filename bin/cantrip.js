#!/usr/bin/env node
// The `cantrip` executable: a tiny launcher for the compiled CLI, so starting
// it never needs a TypeScript loader. Output to stdout is buffered and flushed
// in large writes, because spells that print in a loop would otherwise spend
// their time in write(2).
import { existsSync } from 'node:fs';

const cliUrl = new URL('../dist/bin/cli.js', import.meta.url);

// `cantrip run x.spell | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`cantrip: cannot write output: ${error.message}\n`);
  process.exit(74);
});

if (!existsSync(cliUrl)) {
  process.stderr.write('Cantrip is not built yet: run `npm run build`.\n');
  process.exitCode = 70;
} else {
  let main;
  try {
    ({ main } = await import(cliUrl.href));
  } catch (error) {
    process.stderr.write(`Cantrip's build is broken (${error?.message ?? error}): run \`npm run build\`.\n`);
    process.exitCode = 70;
  }
  if (main) process.exitCode = await runBuffered(main);
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
