/**
 * The host functions a debugger's `evaluate` may call: those that change
 * nothing — math, text, and questions about the world. Everything else (a
 * function that damages, moves, spawns, plays a sound, draws from the
 * world's seeded random source, waits, or one of the game's own functions,
 * which record an event) is refused, so looking at a paused program never
 * changes what it does next.
 *
 * A list by name, kept here rather than as a flag in the host table, because
 * only the debugger asks; a host function added later is refused until it is
 * listed (the safe default). bin/dap/read-only-hosts.test.ts checks that
 * every name here is a real host function.
 */
export const READ_ONLY_HOSTS: ReadonlySet<string> = new Set([
  // vm/builtins.ts: pure functions of their arguments, and the process clock.
  'clock',
  'len',
  'str',
  'floor',
  'abs',
  'sqrt',
  'min',
  'max',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'pow',
  'exp',
  'log',
  'round',
  'ceil',
  'sign',
  'clamp',
  'lerp',
  'deg',
  'rad',
  'pi',
  // runtime/host/host-api.ts: queries of the world, which read it and change nothing.
  'nearby',
  'nearest',
  'within',
  'distance',
  'now',
]);
