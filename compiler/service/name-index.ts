/**
 * Every name written in a spell, in source order, with what it names: a
 * declared symbol (from the resolver's symbol table), a host function, an
 * object's property, a method declaration. Hover, definition, references,
 * rename and semantic tokens all start by finding the name at an offset here.
 */
import type * as A from '../ast.js';
import { walk } from '../ast-walk.js';
import type { Resolution } from '../resolver.js';
import type { SpellSymbol } from '../symbols.js';
import type { HostFunctionSpec } from '../../vm/host.js';

export type NameRole =
  /** A variable, function, class or spell, where it is used or declared. */
  | 'name'
  /** `object.name` (read or set). */
  | 'property'
  /** A method's name in its class. */
  | 'method'
  /** `super.name`. */
  | 'super-method';

export interface NameEntry {
  readonly id: A.Identifier;
  readonly role: NameRole;
  /** The symbol a 'name' stands for (absent for host functions and undeclared globals). */
  readonly symbol?: SpellSymbol;
  readonly host?: HostFunctionSpec;
  /** True where the name is declared (a declaration, a parameter, a method). */
  readonly declaration: boolean;
  /** An assignment to the name (`x = 1`, `x += 1`). */
  readonly assigned: boolean;
  /** The object of a property. */
  readonly object?: A.Expr;
  /** The property is called (`list.push(1)`): a method call. */
  readonly called: boolean;
  /** The class of a method. */
  readonly classNode?: A.ClassStmt;
}

export class NameIndex {
  /** Sorted by start offset. */
  readonly entries: NameEntry[];
  private usesBySymbol: Map<SpellSymbol, NameEntry[]> | null = null;

  constructor(program: A.Program, resolution: Resolution | null, hosts: readonly HostFunctionSpec[]) {
    this.entries = collect(program, resolution, hosts).sort((a, b) => a.id.loc.start - b.id.loc.start);
  }

  /** The name whose text contains `offset` or ends right at it (a cursor just after a word is on it). */
  at(offset: number): NameEntry | null {
    let lo = 0;
    let hi = this.entries.length - 1;
    let found: NameEntry | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const entry = this.entries[mid]!;
      if (entry.id.loc.start <= offset) {
        if (offset <= entry.id.loc.end && entry.id.name !== '') found = entry;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Every place a symbol is named (declarations included), in source order. */
  uses(symbol: SpellSymbol): readonly NameEntry[] {
    if (this.usesBySymbol === null) {
      this.usesBySymbol = new Map();
      for (const entry of this.entries) {
        if (entry.symbol === undefined) continue;
        const list = this.usesBySymbol.get(entry.symbol);
        if (list) list.push(entry);
        else this.usesBySymbol.set(entry.symbol, [entry]);
      }
    }
    return this.usesBySymbol.get(symbol) ?? [];
  }

  /** Was the symbol ever assigned after its declaration? */
  isReassigned(symbol: SpellSymbol): boolean {
    return this.uses(symbol).some((e) => e.assigned);
  }
}

function collect(program: A.Program, resolution: Resolution | null, hosts: readonly HostFunctionSpec[]): NameEntry[] {
  const entries: NameEntry[] = [];
  const uses = resolution?.symbols.uses;
  const hostByName = new Map(hosts.map((h) => [h.name, h]));
  const called = new Set<A.Expr>();
  const name = (id: A.Identifier, declaration: boolean, node: A.Node | null, assigned = false) => {
    if (id.name === '') return;
    const symbol = uses?.get(id);
    const ref = node === null ? undefined : resolution?.refs.get(node);
    const host = ref?.kind === 'host' ? hostByName.get(id.name) : undefined;
    entries.push({ id, role: 'name', declaration, assigned, called: false, ...(symbol ? { symbol } : {}), ...(host ? { host } : {}) });
  };
  walk(program.body, {
    stmt(s) {
      switch (s.kind) {
        case 'Var':
          return name(s.name, true, s);
        case 'Function':
          if (s.functionKind !== 'method' && s.functionKind !== 'initializer') name(s.name, true, s);
          for (const p of s.params) name(p, true, null);
          return;
        case 'Class':
          name(s.name, true, s);
          for (const m of s.methods) {
            if (m.name.name !== '') entries.push({ id: m.name, role: 'method', declaration: true, assigned: false, called: false, classNode: s });
          }
          return;
        case 'ForIn':
          return name(s.variable, true, null);
        default:
          return;
      }
    },
    expr(e) {
      switch (e.kind) {
        case 'Variable':
          return name(e.name, false, e);
        case 'Assign':
          return name(e.name, false, e, true);
        case 'Call':
          if (e.callee.kind === 'Get') called.add(e.callee);
          return;
        case 'Get':
        case 'Set':
          if (e.name.name !== '') entries.push({ id: e.name, role: 'property', declaration: false, assigned: e.kind === 'Set', object: e.object, called: called.has(e) });
          return;
        case 'Super':
          if (e.method.name !== '') entries.push({ id: e.method, role: 'super-method', declaration: false, assigned: false, called: false });
          return;
        default:
          return;
      }
    },
  });
  return entries;
}
