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
import { diagnosticAt } from './parse-errors.js';

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
        diagnostics.push(diagnosticAt('warning', unknownPropertyMessage(name, names), e.name.loc, name));
      },
    });
  }
  return diagnostics;
}

/** "No breed defines property 'wisdm'; did you mean 'wisdom'?" */
function unknownPropertyMessage(name: string, known: ReadonlySet<string>): string {
  const suggestion = nearestName(name, known);
  const base = `No breed has a property '${name}'`;
  return suggestion === null ? `${base}.` : `${base}; did you mean '${suggestion}'?`;
}

/** The spell's parameters that it never assigns and never shadows. */
function onlyEverParameters(spell: A.FunctionStmt): Set<string> {
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

/** The known name closest to `name` by edit distance, if close enough to be a typo. */
export function nearestName(name: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const candidate of known) {
    if (Math.abs(candidate.length - name.length) > bestDistance) continue;
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d <= bestDistance && (best === null || d < bestDistance || candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions (`wsidom` is one step from `wisdom`). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}
