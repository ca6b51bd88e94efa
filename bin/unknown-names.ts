/**
 * The note `check` and `compile` add under "Undefined variable" warnings. A
 * name the compiler does not know compiles to a global lookup (Lox binds
 * globals late, so it is a warning, not an error — see docs/cli.md); for a
 * game's own host function that means bytecode whose cast fails in the game.
 * The usual cause is a missing `--api` file, so the note says so.
 */
import type { Diagnostic } from '../compiler/diagnostics.js';
import { undefinedVariableMessage } from '../compiler/resolver.js';

/** The names the compiler warned are undefined, in order, once each. */
export function undefinedNames(diagnostics: readonly Diagnostic[]): string[] {
  const names = new Set<string>();
  for (const d of diagnostics) {
    if (d.severity === 'warning' && d.token !== null && d.message === undefinedVariableMessage(d.token)) names.add(d.token);
  }
  return [...names];
}

/** The note for these warnings, or null when there are none. `apiFile` is the --api file given, if any. */
export function undefinedNamesNote(diagnostics: readonly Diagnostic[], apiFile: string | undefined): string | null {
  const names = undefinedNames(diagnostics);
  if (names.length === 0) return null;
  const list = names.map((n) => `'${n}'`).join(', ');
  const which = names.length === 1 ? 'is' : 'are';
  if (apiFile !== undefined) {
    return `note: ${list} ${which} not a built-in, not in ${apiFile} and not declared in this file: a cast that reaches ${names.length === 1 ? 'it' : 'one'} fails with "Undefined variable".`;
  }
  return (
    `note: ${list} ${which} not a built-in and not declared in this file, so ${names.length === 1 ? 'it compiles' : 'they compile'} to a global lookup ` +
    `that fails when it runs ("Undefined variable"). If ${names.length === 1 ? "it is one of your game's host functions" : "they are your game's host functions"}, ` +
    "pass --api game-api.json (the game's API in the format `cantrip api --json` prints), or name that file in a cantrip.json beside your spells " +
    '({ "api": "game-api.json" }).'
  );
}
