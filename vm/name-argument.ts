/**
 * Names the embedder passes to the VM and the world (`vm.cast(name, …)`,
 * `vm.call(globalName, …)`, `world.cast(spell, …)`, `world.spawn(breed, …)`) are typed `string`, but
 * JavaScript callers, data from a save or a network message can pass
 * anything. A name that is not a string gets a clear Cantrip error instead of
 * a JavaScript TypeError from the code that quotes it.
 */

/** What a value is, for a message: `a number (42)`, `null`, `an object` (its text is never quoted: it may be huge). */
export function describeNonString(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'number':
    case 'boolean':
      return `a ${typeof value} (${String(value)})`;
    case 'string':
      return 'a string';
    case 'bigint':
      return 'a bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return Array.isArray(value) ? 'an array' : 'an object';
  }
}

/** Null when `name` is a string; otherwise the message: `A spell name must be a string, not a number (42).` */
export function nameArgumentProblem(what: 'spell name' | 'global name' | 'breed name', name: unknown): string | null {
  return typeof name === 'string' ? null : `A ${what} must be a string, not ${describeNonString(name)}.`;
}
