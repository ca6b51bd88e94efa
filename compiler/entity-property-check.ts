/**
 * Warnings for entity properties nothing defines: `caster.wisdm` when the
 * breeds know `wisdom`. Given the names an entity can have (every breed's
 * attributes plus the runtime's built-in properties), a property read is
 * flagged when
 *
 * - its object is a spell parameter that is only ever that parameter (the
 *   spell never assigns it, and nothing inside the spell declares the same
 *   name), so it holds whatever entity the host cast the spell with;
 * - no breed defines the name, it is not built in, and no code in the
 *   module ever sets a property of that name (`target.mark = 1` makes `mark`
 *   known everywhere).
 *
 * It is a warning: as in Lox, an unknown property stays a runtime error,
 * and a spell cast with something other than an entity still works.
 */

import type * as A from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { walk } from './ast-walk.js';
import { nearestName } from './nearest-name.js';
import { diagnosticAt } from './parse-errors.js';

export { nearestName } from './nearest-name.js';

export function checkEntityProperties(program: A.Program, known: Iterable<string>): Diagnostic[] {
  const names = new Set(known);
  const setNames = new Set<string>();
  walk(program.body, {
    expr: (e) => {
      if (e.kind === 'Set') setNames.add(e.name.name);
    },
  });
  for (const name of setNames) names.add(name);

  const diagnostics: Diagnostic[] = [];
  for (const stmt of program.body) {
    if (stmt.kind !== 'Function' || stmt.functionKind !== 'spell') continue;
    const entityParams = onlyEverParameters(stmt);
    if (entityParams.size === 0) continue;
    walk(stmt.body, {
      expr: (e) => {
        if (e.kind !== 'Get' || e.object.kind !== 'Variable' || !entityParams.has(e.object.name.name)) return;
        const name = e.name.name;
        if (name === '' || names.has(name)) return;
        const suggestion = nearestName(name, names);
        const warning = diagnosticAt('warning', unknownPropertyMessage(name, suggestion), e.name.loc, name);
        diagnostics.push(suggestion === null ? warning : { ...warning, suggestion });
      },
    });
  }
  return diagnostics;
}

/** "No breed defines property 'wisdm'; did you mean 'wisdom'?" */
function unknownPropertyMessage(name: string, suggestion: string | null): string {
  const base = `No breed has a property '${name}'`;
  return suggestion === null ? `${base}.` : `${base}; did you mean '${suggestion}'?`;
}

/** The spell's parameters that it never assigns and never shadows. */
export function onlyEverParameters(spell: A.FunctionStmt): Set<string> {
  const params = new Set(spell.params.map((p) => p.name).filter((n) => n !== ''));
  const drop = (name: string) => params.delete(name);
  walk(spell.body, {
    expr: (e) => {
      if (e.kind === 'Assign') drop(e.name.name);
    },
    stmt: (s) => {
      if (s.kind === 'Var' || s.kind === 'Class') drop(s.name.name);
      else if (s.kind === 'Function') {
        drop(s.name.name);
        s.params.forEach((p) => drop(p.name));
      } else if (s.kind === 'ForIn') drop(s.variable.name);
    },
  });
  return params;
}
