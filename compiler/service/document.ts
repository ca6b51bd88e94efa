/**
 * One analysed version of a spell file: compiled once (tokens, tree,
 * resolution, diagnostics, module), with the indexes the editor features
 * share built on first use. Every request on that version reads the same
 * results; an edit makes a new SpellDocument.
 */
import type * as A from '../ast.js';
import { walk } from '../ast-walk.js';
import { compileWithDetails, refusedCompile, type CompileDetails } from '../compile.js';
import { EMPTY_SPAN } from '../ast.js';
import { diagnosticAt } from '../parse-errors.js';
import type { TokenParser } from '../parse.js';
import { onlyEverParameters } from '../entity-property-check.js';
import type { SpellSymbol } from '../symbols.js';
import { serviceDiagnostic, type ServiceDiagnostic } from './diagnostics.js';
import { NameIndex } from './name-index.js';
import { LineIndex } from './text.js';
import { entityPropertyNames, type ServiceWorld } from './world.js';

/**
 * Larger files are not analysed: compiling one on every keystroke would
 * stall the editor for seconds (`cantrip check` compiles files of any size).
 */
export const MAX_ANALYSED_SOURCE = 1 << 20;

export class SpellDocument {
  readonly lines: LineIndex;
  readonly compiled: CompileDetails;
  readonly diagnostics: readonly ServiceDiagnostic[];
  private nameIndex: NameIndex | null = null;
  private entityParameters: Map<A.FunctionStmt, Set<string>> | null = null;
  private setProperties: Set<string> | null = null;

  constructor(
    readonly source: string,
    readonly world: ServiceWorld,
    sourceName = '<input>',
    /** Reuses the statements of the file's last version an edit left alone (LanguageService keeps one per file). */
    tokenParser?: TokenParser,
  ) {
    this.lines = new LineIndex(source);
    const entityProperties = world.breeds.length > 0 ? entityPropertyNames(world) : undefined;
    this.compiled =
      source.length > MAX_ANALYSED_SOURCE
        ? refusedCompile(diagnosticAt('error', tooLargeMessage(source.length), EMPTY_SPAN, ''))
        : compileWithDetails(source, { sourceName, hosts: world.hosts, entityProperties, ...(tokenParser ? { tokenParser } : {}) });
    this.diagnostics = this.compiled.diagnostics.map((d) => serviceDiagnostic(d, this.lines));
  }

  get ast(): A.Program {
    return this.compiled.ast;
  }

  get names(): NameIndex {
    this.nameIndex ??= new NameIndex(this.compiled.ast, this.compiled.resolution, this.world.hosts);
    return this.nameIndex;
  }

  get symbols(): readonly SpellSymbol[] {
    return this.compiled.resolution?.symbols.symbols ?? [];
  }

  /** The symbols in scope at `offset`, innermost first; a name shadowed by an inner one is left out. */
  visibleSymbols(offset: number): SpellSymbol[] {
    const inScope = this.symbols.filter((s) => s.global || (s.scopeStart <= offset && offset <= s.scopeEnd));
    inScope.sort((a, b) => Number(a.global) - Number(b.global) || b.scopeStart - a.scopeStart);
    const seen = new Set<string>();
    return inScope.filter((s) => !seen.has(s.name) && seen.add(s.name) !== undefined);
  }

  /** The symbol `name` means at `offset`, if it is declared. */
  symbolNamed(name: string, offset: number): SpellSymbol | null {
    return this.visibleSymbols(offset).find((s) => s.name === name) ?? null;
  }

  /** A spell's parameters that only ever hold what the host cast it with: entities. */
  entityParametersOf(spell: A.FunctionStmt): ReadonlySet<string> {
    this.entityParameters ??= new Map();
    let params = this.entityParameters.get(spell);
    if (params === undefined) {
      params = spell.functionKind === 'spell' ? onlyEverParameters(spell) : new Set();
      this.entityParameters.set(spell, params);
    }
    return params;
  }

  /** Every property name the module ever sets (`x.mark = 1`). */
  propertiesSet(): ReadonlySet<string> {
    if (this.setProperties === null) {
      const names = new Set<string>();
      walk(this.ast.body, { expr: (e) => void (e.kind === 'Set' && e.name.name !== '' && names.add(e.name.name)) });
      this.setProperties = names;
    }
    return this.setProperties;
  }

  /** The functions and classes around `offset`, outermost first (only the statements that contain it are visited). */
  enclosing(offset: number): { functions: A.FunctionStmt[]; classes: A.ClassStmt[] } {
    const functions: A.FunctionStmt[] = [];
    const classes: A.ClassStmt[] = [];
    let level: readonly A.Stmt[] = this.ast.body;
    for (let depth = 0; depth < 1000; depth++) {
      const inside = level.find((s) => s.loc.start <= offset && offset <= s.loc.end);
      if (inside === undefined) break;
      if (inside.kind === 'Function') functions.push(inside);
      else if (inside.kind === 'Class') classes.push(inside);
      level = innerStatements(inside);
    }
    return { functions, classes };
  }
}

function tooLargeMessage(length: number): string {
  return `This file is ${megabytes(length)}; the language service analyses files up to ${megabytes(MAX_ANALYSED_SOURCE)} (run \`cantrip check\` on it).`;
}

/** A size for messages: `5.0 MB`. */
export function megabytes(n: number): string {
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}

/** The statements directly inside a statement (functions are declared only by statements: Lox has no function expressions). */
function innerStatements(s: A.Stmt): readonly A.Stmt[] {
  switch (s.kind) {
    case 'Function':
    case 'Block':
      return s.body;
    case 'Class':
      return s.methods;
    case 'If':
      return s.elseBranch ? [s.thenBranch, s.elseBranch] : [s.thenBranch];
    case 'While':
    case 'ForIn':
      return [s.body];
    case 'For':
      return s.initializer ? [s.initializer, s.body] : [s.body];
    default:
      return [];
  }
}
