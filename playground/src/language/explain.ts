/**
 * Plain words for the errors a designer meets when code runs outside a cast:
 * world functions (spawn, damage, wait …) in the top-level code. The
 * runtime's messages are right but say nothing about what to do; these
 * say where such code belongs.
 */

/** The runtime's HostError when a world function runs with no cast (vm/host-api.ts). */
const NEEDS_CAST = /^(\w+)\(\) can only be used in a spell cast on a world\.$/;
/** Any other error a host function's call gives ("Argument 1 of damage() must be an entity."): the VM checks arguments before the function looks for a cast. */
const HOST_CALL_ERROR = /^(?:Argument \d+ of )?(\w+)\(\) /;
/** The runtime's WorldError when a module's top-level code fails while the world loads it. */
const SCRIPT_FAILED = /^.*?: the top-level script (?:failed: (.*)|may not wait\.)$/s;

/** The VM's budget messages ("Out of fuel: the cast ran more than 5000000 instructions."; the VM names the script, cast or call). */
const BUDGET = /^(Out of fuel|Stack overflow|Out of memory|Too much output): (the (?:script|cast|call) .*)$/;

/** A budget error in words for the playground: readable numbers, and why there is a budget at all. */
export function explainBudgetError(text: string): string {
  const [first = '', ...trace] = text.split('\n');
  const match = BUDGET.exec(first);
  if (!match) return text;
  const rest = match[2]!.replace(/\d{4,}/g, (n) => Number(n).toLocaleString('en-US'));
  const why = match[1] === 'Out of fuel' ? ' The playground gives every run a budget, so an endless loop cannot freeze the page.' : '';
  return [`${match[1]}: ${rest}${why}`, ...trace].join('\n');
}

/**
 * A failed Run's text (message, then `[line N] in …` lines) with the
 * message explained when it is a world function called from top-level code
 * or a budget running out. `worldFunctions` names the host functions that
 * act on the world: a call of one at top level gets the explanation even
 * when its arguments failed first (`damage(t, 3)` with no entity to give
 * it), since they could not be right there anyway; the argument error
 * follows it.
 */
export function explainScriptError(text: string, worldFunctions: ReadonlySet<string> = new Set()): string {
  const [first = '', ...trace] = text.split('\n');
  const needsCast = NEEDS_CAST.exec(first);
  const hostCall = needsCast ? null : HOST_CALL_ERROR.exec(first);
  const fn = needsCast?.[1] ?? (hostCall && worldFunctions.has(hostCall[1]!) ? hostCall[1]! : null);
  if (fn === null) return explainBudgetError(text);
  const advice =
    `${fn}() acts on the world, so it only works inside a spell that is cast. ` +
    `Run runs just the top-level code (print, your functions and classes). ` +
    `Put the call in a spell — spell setup(caster, target) { ${fn}(…); } — pick it in the spell menu and press Cast.` +
    (hostCall ? ` (Here it also failed with: ${first})` : '');
  return [advice, ...trace].join('\n');
}

/** Why the world could not load the editor's spells, in words that say what to change. */
export function explainWorldLoadError(message: string): string {
  const match = SCRIPT_FAILED.exec(message);
  if (!match) return `The world cannot load this spell: ${message}`;
  const why = match[1] === undefined ? 'it may not wait' : `it failed: ${match[1].replace(/\.$/, '')}`;
  return (
    `The world runs the top-level code of your spells each time it loads them, before any entity exists, and ${why}. ` +
    'Keep world actions (spawn, damage, wait …) inside a spell; press Run to try the top-level code on its own.'
  );
}
