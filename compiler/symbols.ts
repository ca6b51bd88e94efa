/**
 * The names a module declares and where each is used, as the resolver finds
 * them. The emitter needs only slots; these are for tools: the language
 * service's go-to-definition, references, rename and completion of what is
 * in scope read them instead of scoping names a second time.
 */

import type * as A from './ast.js';

export type SymbolKind = 'variable' | 'parameter' | 'function' | 'spell' | 'class' | 'loop-variable';

export interface SpellSymbol {
  readonly name: string;
  readonly kind: SymbolKind;
  /** Every place the name is declared: one for a local; a global may be declared again (`var a = 1; var a = 2;`). */
  readonly declarations: A.Identifier[];
  /** The statement that declares it (for a parameter, its function). */
  readonly node: A.Stmt;
  /** A top-level global, visible everywhere in the module. */
  readonly global: boolean;
  /** The function whose local it is (null for globals and for locals of top-level code). */
  readonly owner: A.FunctionStmt | null;
  /** 0-based offsets where the name is in scope: from its declaration to the end of its block. */
  readonly scopeStart: number;
  readonly scopeEnd: number;
}

export interface SymbolTable {
  readonly symbols: SpellSymbol[];
  /** Each identifier that names a symbol (its uses and its declarations) → the symbol. */
  readonly uses: Map<A.Identifier, SpellSymbol>;
}
