/**
 * A complete embedding: compile a spell with a host function the game
 * supplies, run it, cast it, and resume it after it waits.
 * Run it with `npm run build && node dist/docs/examples/embed.js`;
 * the tests run it too (docs/examples/embed.test.ts).
 */
import {
  compile,
  formatDiagnosticClox,
  CORE_HOST_FUNCTIONS,
  HostError,
  VM,
  type HostFunction,
} from '../../index.js';

const source = `
var blessings = 0;

spell bless(name, times) {
  for (var i = 0; i < times; i += 1) {
    blessings += 1;
    shout("bless you, " + name);
  }
  pause();                       // suspends this cast until the game resumes it
  print name + " was blessed " + str(blessings) + " times";
}
`;

/** The game's own functions, each with a signature the compiler checks and a doc the playground shows. */
export function gameHosts(log: (line: string) => void): HostFunction[] {
  const shout: HostFunction = {
    name: 'shout',
    params: [{ name: 'text', type: 'string' }],
    returns: 'nil',
    doc: 'Shouts a line in the game log.',
    impl: (_ctx, text) => {
      // A HostError becomes a clean spell runtime error at the calling line.
      if (String(text).length > 30) throw new HostError('Too loud: shout at most 30 characters.');
      log(String(text).toUpperCase());
      return null;
    },
  };
  const pause: HostFunction = {
    name: 'pause',
    params: [],
    returns: 'nil',
    doc: 'Suspends the cast until the game resumes it.',
    impl: (ctx) => {
      ctx.suspend();
      return null;
    },
  };
  return [shout, pause];
}

export function runExample(log: (line: string) => void): void {
  const hosts = [...CORE_HOST_FUNCTIONS, ...gameHosts(log)];

  // Not `const { module } = …`: in a CommonJS file `module` is taken, and that line is a SyntaxError at the top level.
  const compiled = compile(source, { sourceName: 'bless.spell', hosts });
  if (!compiled.module) {
    for (const d of compiled.diagnostics) log(formatDiagnosticClox(d));
    return;
  }

  const vm = new VM(compiled.module, { hosts, print: log, fuel: 100_000 });
  vm.runScript(); // defines the globals (blessings)

  const fiber = vm.cast('bless', ['Arthur', 2]);
  log(`cast is ${fiber.state}`); // suspended inside pause()
  vm.resume(fiber);
  log(`cast is ${fiber.state}`); // done

  // A cast that goes wrong ends cleanly with the spell's line and call stack.
  const failed = vm.cast('bless', ['Sir Lancelot of the Lake, the Brave', 1]);
  if (failed.error) for (const line of failed.error.format().split('\n')) log(line);
}

if (process.argv[1]?.endsWith('embed.js')) runExample(console.log);
