/**
 * Document symbols (the outline, breadcrumbs, Ctrl+Shift+O) and the entries
 * workspace symbol search looks through: spells, functions, classes with
 * their methods, and top-level variables.
 */
import type * as A from '../ast.js';
import { functionHeader } from './describe.js';
import type { SpellDocument } from './document.js';

export type OutlineKind = 'spell' | 'function' | 'class' | 'method' | 'variable';

export interface OutlineSymbol {
  readonly name: string;
  readonly kind: OutlineKind;
  readonly detail: string;
  /** The whole declaration. */
  readonly start: number;
  readonly end: number;
  /** The name. */
  readonly nameStart: number;
  readonly nameEnd: number;
  readonly children: readonly OutlineSymbol[];
}

export function documentSymbols(doc: SpellDocument): OutlineSymbol[] {
  return declarations(doc.ast.body);
}

function declarations(body: readonly A.Stmt[]): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const s of body) {
    if (s.kind === 'Function' && s.name.name !== '') out.push(functionSymbol(s));
    else if (s.kind === 'Class' && s.name.name !== '') {
      const methods = s.methods.filter((m) => m.name.name !== '').map((m) => ({ ...functionSymbol(m), kind: 'method' as const }));
      out.push(symbol(s.name, s, 'class', s.superclass ? `< ${s.superclass.name.name}` : '', methods));
    } else if (s.kind === 'Var' && s.name.name !== '') out.push(symbol(s.name, s, 'variable', '', []));
  }
  return out;
}

function functionSymbol(fn: A.FunctionStmt): OutlineSymbol {
  const nested = declarations(fn.body).filter((d) => d.kind === 'function' || d.kind === 'class');
  return symbol(fn.name, fn, fn.functionKind === 'spell' ? 'spell' : 'function', functionHeader(fn).replace(/^\w+ /, ''), nested);
}

function symbol(name: A.Identifier, node: A.Stmt, kind: OutlineKind, detail: string, children: OutlineSymbol[]): OutlineSymbol {
  return { name: name.name, kind, detail, start: node.loc.start, end: Math.max(node.loc.end, name.loc.end), nameStart: name.loc.start, nameEnd: name.loc.end, children };
}

/** Does `name` match a workspace-symbol query? Case-insensitive, the query's letters in order (`fb` finds `fireball`). */
export function matchesQuery(name: string, query: string): boolean {
  const n = name.toLowerCase();
  let i = 0;
  for (const c of query.toLowerCase()) {
    i = n.indexOf(c, i);
    if (i === -1) return false;
    i++;
  }
  return true;
}

/** The outline flattened, for workspace symbol search. */
export function flattenSymbols(symbols: readonly OutlineSymbol[], container = ''): { symbol: OutlineSymbol; container: string }[] {
  return symbols.flatMap((s) => [{ symbol: s, container }, ...flattenSymbols(s.children, s.name)]);
}
