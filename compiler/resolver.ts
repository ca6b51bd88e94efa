/**
 * The resolver: scopes, slots, upvalues and the book's static errors.
 *
 * It walks the tree the way clox's single-pass compiler does and records,
 * for the emitter, where every name lives (local slot, upvalue, global slot
 * or host function), what each scope must pop or close when it ends, and
 * each function's upvalue list. The emitter then never has to look a name up.
 *
 * Names resolve local → upvalue → global declared anywhere at the top level
 * → host function → otherwise an undeclared global (a warning now, Lox's
 * "Undefined variable 'x'." at run time).
 */

import type { HostFunctionSpec } from '../vm/host.js';
import { describeType } from '../vm/objects.js';
import type { ValueType } from '../vm/value.js';
import { hostArity, hostArityMessage } from '../vm/host.js';
import type { HostImport, UpvalueDescriptor } from '../vm/module.js';
import type * as A from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { MAX_GLOBALS, MAX_LOCALS, MAX_UPVALUES } from './limits.js';
import { nearestName } from './nearest-name.js';
import { diagnosticAt } from './parse-errors.js';
import type { SpellSymbol, SymbolKind, SymbolTable } from './symbols.js';

/**
 * The warning for a name that is neither local, nor a global this file
 * declares, nor a host function. Only a warning: Lox binds globals late, so
 * the name compiles to a global lookup that fails at run time with clox's
 * "Undefined variable 'x'." only if that line runs (a valid Lox program that
 * never runs it must still compile and run).
 */
export function undefinedVariableMessage(name: string): string {
  return `Undefined variable '${name}'.`;
}

export type VariableRef =
  | { readonly kind: 'local'; readonly slot: number }
  | { readonly kind: 'upvalue'; readonly index: number }
  | { readonly kind: 'global'; readonly slot: number }
  | { readonly kind: 'host'; readonly index: number };

/** Where a declaration stores its value. */
export type DeclarationTarget = { readonly kind: 'local'; readonly slot: number } | { readonly kind: 'global'; readonly slot: number };

/** What the emitter needs to know about one function. */
export interface FunctionInfo {
  readonly upvalues: UpvalueDescriptor[];
}

export interface Resolution {
  /** Variable / Assign / This nodes, and a class's superclass Variable. */
  readonly refs: Map<A.Node, VariableRef>;
  /** `this` and `super` for each Super expression. */
  readonly superRefs: Map<A.SuperExpr, { readonly self: VariableRef; readonly superclass: VariableRef }>;
  /** Var, Function and Class statements. */
  readonly declarations: Map<A.Stmt, DeclarationTarget>;
  /** For each scope-owning node (Block, For, ForIn, a Class's `super` scope): captured flag of each local, in pop order. */
  readonly scopeExits: Map<A.Node, boolean[]>;
  /** The for-in hidden slots: list at `slot`, index at `slot + 1`, the loop variable at `slot + 2`. */
  /** The slot of a subclass declaration's hidden `super` local. */
  readonly superSlots: Map<A.ClassStmt, number>;
  readonly forIn: Map<A.ForInStmt, { readonly slot: number; readonly variableCaptured: boolean }>;
  readonly functions: Map<A.FunctionStmt, FunctionInfo>;
  readonly globals: string[];
  readonly hostImports: { name: string; arities: number[] }[];
  readonly spells: A.FunctionStmt[];
  /** Every declared name and its uses, for tools (the emitter reads only slots). */
  readonly symbols: SymbolTable;
  readonly diagnostics: Diagnostic[];
}

interface Local {
  readonly name: string;
  /** -1 while its initializer runs ("Can't read local variable in its own initializer."). */
  depth: number;
  captured: boolean;
  /** Null for the hidden slots (the callee, `this`, `super`, a for-in's list and index). */
  symbol: SpellSymbol | null;
}

type ScopeKind = 'script' | A.FunctionKind;

class FunctionScope {
  readonly locals: Local[];
  readonly upvalues: UpvalueDescriptor[] = [];
  scopeDepth = 0;
  /** Where each open scope ends in the source (its locals' symbols are in scope until there). */
  readonly scopeEnds: number[] = [];
  constructor(
    readonly enclosing: FunctionScope | null,
    readonly kind: ScopeKind,
    readonly node: A.FunctionStmt | null,
  ) {
    // Slot 0 holds the callee; in methods it is `this`.
    const slotZero = kind === 'method' || kind === 'initializer' ? 'this' : '';
    this.locals = [{ name: slotZero, depth: 0, captured: false, symbol: null }];
  }
}

interface ClassScope {
  readonly enclosing: ClassScope | null;
  hasSuperclass: boolean;
}

export interface ResolveOptions {
  readonly hosts: readonly HostFunctionSpec[];
}

export function resolve(program: A.Program, options: ResolveOptions): Resolution {
  return new Resolver(options).run(program);
}

class Resolver {
  private readonly result: Resolution = {
    refs: new Map(),
    superRefs: new Map(),
    declarations: new Map(),
    scopeExits: new Map(),
    superSlots: new Map(),
    forIn: new Map(),
    functions: new Map(),
    globals: [],
    hostImports: [],
    spells: [],
    symbols: { symbols: [], uses: new Map() },
    diagnostics: [],
  };
  private readonly globalSymbols = new Map<string, SpellSymbol>();
  private readonly globalSlots = new Map<string, number>();
  private readonly hostSpecs = new Map<string, HostFunctionSpec>();
  private readonly hostIndex = new Map<string, number>();
  private readonly warnedUndefined = new Set<string>();
  private readonly spellNames = new Set<string>();
  private fn = new FunctionScope(null, 'script', null);
  private currentClass: ClassScope | null = null;
  private tooManyGlobalsReported = false;

  constructor(options: ResolveOptions) {
    for (const spec of options.hosts) this.hostSpecs.set(spec.name, spec);
  }

  run(program: A.Program): Resolution {
    this.declareTopLevelGlobals(program.body);
    for (const stmt of program.body) this.statement(stmt);
    return this.result;
  }

  // ---- diagnostics ----------------------------------------------------

  private error(message: string, loc: A.SourceSpan, token: string | null): void {
    this.result.diagnostics.push(diagnosticAt('error', message, loc, token));
  }

  private errorAt(message: string, id: A.Identifier): void {
    this.error(message, id.loc, id.name);
  }

  // ---- globals --------------------------------------------------------

  /** Every name declared at the top level is a global everywhere in the module, whatever the order. */
  private declareTopLevelGlobals(body: readonly A.Stmt[]): void {
    for (const stmt of body) {
      if (stmt.kind !== 'Var' && stmt.kind !== 'Function' && stmt.kind !== 'Class') continue;
      this.globalSlot(stmt.name);
      this.recordGlobal(stmt, stmt.name);
    }
  }

  private recordGlobal(stmt: A.VarStmt | A.FunctionStmt | A.ClassStmt, id: A.Identifier): void {
    if (id.name === '') return;
    let symbol = this.globalSymbols.get(id.name);
    if (symbol === undefined) {
      symbol = { name: id.name, kind: declarationKind(stmt), declarations: [], node: stmt, global: true, owner: null, scopeStart: 0, scopeEnd: Infinity };
      this.globalSymbols.set(id.name, symbol);
      this.result.symbols.symbols.push(symbol);
    }
    symbol.declarations.push(id);
    this.result.symbols.uses.set(id, symbol);
  }

  /** The symbol a local of the current function (or an enclosing one) of this name stands for, as resolveLocal finds it. */
  private localSymbol(name: string): SpellSymbol | null {
    for (let f: FunctionScope | null = this.fn; f !== null; f = f.enclosing) {
      for (let i = f.locals.length - 1; i >= 0; i--) if (f.locals[i]!.name === name) return f.locals[i]!.symbol;
    }
    return null;
  }

  private recordUse(id: A.Identifier, symbol: SpellSymbol | null | undefined): void {
    if (symbol) this.result.symbols.uses.set(id, symbol);
  }

  private globalSlot(id: A.Identifier): number {
    const existing = this.globalSlots.get(id.name);
    if (existing !== undefined) return existing;
    if (this.result.globals.length >= MAX_GLOBALS) {
      if (!this.tooManyGlobalsReported) this.errorAt('Too many global variables in one module.', id);
      this.tooManyGlobalsReported = true;
      return 0;
    }
    const slot = this.result.globals.length;
    this.result.globals.push(id.name);
    this.globalSlots.set(id.name, slot);
    return slot;
  }

  private hostImport(name: string): number {
    let index = this.hostIndex.get(name);
    if (index === undefined) {
      index = this.result.hostImports.length;
      this.result.hostImports.push({ name, arities: [] });
      this.hostIndex.set(name, index);
    }
    return index;
  }

  // ---- scopes ---------------------------------------------------------

  private beginScope(end: number): void {
    this.fn.scopeDepth++;
    this.fn.scopeEnds.push(end);
  }

  /** Pops the scope's locals; returns their captured flags in pop order. */
  private endScope(): boolean[] {
    const fn = this.fn;
    fn.scopeDepth--;
    fn.scopeEnds.pop();
    const exits: boolean[] = [];
    while (fn.locals.length > 0 && fn.locals[fn.locals.length - 1]!.depth > fn.scopeDepth) {
      exits.push(fn.locals.pop()!.captured);
    }
    return exits;
  }

  /** Declare a local in the current scope (book: declareVariable + addLocal); returns its slot. */
  private addLocal(id: A.Identifier, kind: SymbolKind, node: A.Stmt): number {
    const fn = this.fn;
    for (let i = fn.locals.length - 1; i >= 0; i--) {
      const local = fn.locals[i]!;
      if (local.depth !== -1 && local.depth < fn.scopeDepth) break;
      if (local.name === id.name && id.name !== '') {
        this.errorAt('Already a variable with this name in this scope.', id);
        break;
      }
    }
    const slot = this.pushLocal(id.name, id);
    if (id.name !== '') {
      const fn = this.fn;
      const scopeEnd = fn.scopeEnds[fn.scopeEnds.length - 1] ?? Infinity;
      const symbol: SpellSymbol = { name: id.name, kind, declarations: [id], node, global: false, owner: fn.node, scopeStart: id.loc.start, scopeEnd };
      fn.locals[slot]!.symbol = symbol;
      this.result.symbols.symbols.push(symbol);
      this.result.symbols.uses.set(id, symbol);
    }
    return slot;
  }

  private pushLocal(name: string, at: A.Identifier): number {
    const fn = this.fn;
    if (fn.locals.length === MAX_LOCALS) {
      this.errorAt('Too many local variables in function.', at);
      // Keep counting slots so the rest of the function still resolves consistently.
    }
    fn.locals.push({ name, depth: -1, captured: false, symbol: null });
    return fn.locals.length - 1;
  }

  private markInitialized(): void {
    const fn = this.fn;
    if (fn.scopeDepth === 0) return;
    fn.locals[fn.locals.length - 1]!.depth = fn.scopeDepth;
  }

  /** Declare a name where a declaration puts it: a global at the top level, else a local. */
  private declare(stmt: A.VarStmt | A.FunctionStmt | A.ClassStmt, id: A.Identifier): DeclarationTarget {
    const target: DeclarationTarget =
      this.fn.scopeDepth === 0 && this.fn.kind === 'script'
        ? { kind: 'global', slot: this.globalSlot(id) }
        : { kind: 'local', slot: this.addLocal(id, declarationKind(stmt), stmt) };
    this.result.declarations.set(stmt, target);
    return target;
  }

  // ---- name lookup ----------------------------------------------------

  private resolveLocal(fn: FunctionScope, name: string, at: A.SourceSpan): number {
    for (let i = fn.locals.length - 1; i >= 0; i--) {
      const local = fn.locals[i]!;
      if (local.name === name) {
        if (local.depth === -1) this.error("Can't read local variable in its own initializer.", at, name);
        return i;
      }
    }
    return -1;
  }

  private resolveUpvalue(fn: FunctionScope, name: string, at: A.SourceSpan): number {
    const enclosing = fn.enclosing;
    if (enclosing === null) return -1;
    const local = this.resolveLocal(enclosing, name, at);
    if (local !== -1) {
      enclosing.locals[local]!.captured = true;
      return this.addUpvalue(fn, true, local, name, at);
    }
    const upvalue = this.resolveUpvalue(enclosing, name, at);
    if (upvalue !== -1) return this.addUpvalue(fn, false, upvalue, name, at);
    return -1;
  }

  private addUpvalue(fn: FunctionScope, isLocal: boolean, index: number, name: string, at: A.SourceSpan): number {
    const existing = fn.upvalues.findIndex((u) => u.isLocal === isLocal && u.index === index);
    if (existing !== -1) return existing;
    if (fn.upvalues.length >= MAX_UPVALUES) {
      this.error('Too many closure variables in function.', at, name);
      return 0;
    }
    fn.upvalues.push({ isLocal, index });
    return fn.upvalues.length - 1;
  }

  /** Local → upvalue → declared global → host → undeclared global. */
  private lookup(id: A.Identifier, allowHost: boolean): VariableRef {
    const local = this.resolveLocal(this.fn, id.name, id.loc);
    if (local !== -1) {
      this.recordUse(id, this.fn.locals[local]!.symbol);
      return { kind: 'local', slot: local };
    }
    const upvalue = this.resolveUpvalue(this.fn, id.name, id.loc);
    if (upvalue !== -1) {
      this.recordUse(id, this.localSymbol(id.name));
      return { kind: 'upvalue', index: upvalue };
    }
    const global = this.globalSlots.get(id.name);
    if (global !== undefined) {
      this.recordUse(id, this.globalSymbols.get(id.name));
      return { kind: 'global', slot: global };
    }
    if (allowHost && this.hostSpecs.has(id.name)) return { kind: 'host', index: this.hostImport(id.name) };
    if (id.name !== '' && !this.warnedUndefined.has(id.name)) {
      this.warnedUndefined.add(id.name);
      this.warnUndefined(id, allowHost);
    }
    return { kind: 'global', slot: this.globalSlot(id) };
  }

  /** Lox's "Undefined variable 'x'." as a warning, with the nearest name in scope when it looks like a typo. */
  private warnUndefined(id: A.Identifier, allowHost: boolean): void {
    const warning = diagnosticAt('warning', undefinedVariableMessage(id.name), id.loc, id.name);
    const suggestion = nearestName(id.name, this.namesInScope(allowHost));
    this.result.diagnostics.push(suggestion === null ? warning : { ...warning, suggestion });
  }

  private *namesInScope(withHosts: boolean): Iterable<string> {
    for (let f: FunctionScope | null = this.fn; f !== null; f = f.enclosing) {
      for (const local of f.locals) if (local.symbol !== null && local.depth !== -1) yield local.name;
    }
    yield* this.globalSymbols.keys();
    if (withHosts) yield* this.hostSpecs.keys();
  }

  /** `this` / `super` are ordinary (hidden) locals, captured like any other. */
  private lookupHidden(name: string, at: A.SourceSpan): VariableRef {
    const local = this.resolveLocal(this.fn, name, at);
    if (local !== -1) return { kind: 'local', slot: local };
    const upvalue = this.resolveUpvalue(this.fn, name, at);
    if (upvalue !== -1) return { kind: 'upvalue', index: upvalue };
    return { kind: 'local', slot: 0 }; // only after an error was reported
  }

  // ---- statements -----------------------------------------------------

  private statements(list: readonly A.Stmt[]): void {
    for (const stmt of list) this.statement(stmt);
  }

  private statement(stmt: A.Stmt): void {
    switch (stmt.kind) {
      case 'ExpressionStmt':
      case 'Print':
        this.expression(stmt.expression);
        return;
      case 'Var':
        return this.varStatement(stmt);
      case 'Block':
        this.beginScope(stmt.loc.end);
        this.statements(stmt.body);
        this.result.scopeExits.set(stmt, this.endScope());
        return;
      case 'If': {
        // An else-if chain is walked in a loop: long chains cost no stack.
        let link: A.IfStmt = stmt;
        for (;;) {
          this.expression(link.condition);
          this.statement(link.thenBranch);
          if (link.elseBranch?.kind !== 'If') break;
          link = link.elseBranch;
        }
        if (link.elseBranch) this.statement(link.elseBranch);
        return;
      }
      case 'While':
        this.expression(stmt.condition);
        this.statement(stmt.body);
        return;
      case 'For':
        return this.forStatement(stmt);
      case 'ForIn':
        return this.forInStatement(stmt);
      case 'Function':
        return this.functionDeclaration(stmt);
      case 'Class':
        return this.classDeclaration(stmt);
      case 'Return':
        return this.returnStatement(stmt);
      case 'ErrorStmt':
        return;
    }
  }

  private varStatement(stmt: A.VarStmt): void {
    const target = this.declare(stmt, stmt.name);
    if (stmt.initializer) this.expression(stmt.initializer);
    if (target.kind === 'local') this.markInitialized();
  }

  private forStatement(stmt: A.ForStmt): void {
    this.beginScope(stmt.loc.end);
    if (stmt.initializer) this.statement(stmt.initializer);
    if (stmt.condition) this.expression(stmt.condition);
    if (stmt.increment) this.expression(stmt.increment);
    this.statement(stmt.body);
    this.result.scopeExits.set(stmt, this.endScope());
  }

  private forInStatement(stmt: A.ForInStmt): void {
    this.beginScope(stmt.loc.end);
    // The iterable is evaluated before the hidden slots exist, like any initializer.
    this.expression(stmt.iterable);
    const hidden: A.Identifier = { name: '', loc: stmt.variable.loc };
    const slot = this.pushLocal('(list)', hidden);
    this.markInitialized();
    this.pushLocal('(index)', hidden);
    this.markInitialized();
    // A fresh scope per iteration, so closures capture each iteration's variable.
    this.beginScope(stmt.loc.end);
    this.addLocal(stmt.variable, 'loop-variable', stmt);
    this.markInitialized();
    this.statement(stmt.body);
    const inner = this.endScope();
    this.result.forIn.set(stmt, { slot, variableCaptured: inner[0] ?? false });
    this.result.scopeExits.set(stmt, this.endScope());
  }

  private functionDeclaration(stmt: A.FunctionStmt): void {
    let kind = stmt.functionKind;
    if (kind === 'spell') {
      if (this.fn.kind !== 'script' || this.fn.scopeDepth > 0) {
        this.errorAt('Spells must be declared at the top level.', stmt.name);
        kind = 'function';
      } else if (this.spellNames.has(stmt.name.name)) {
        this.errorAt('Already a spell with this name.', stmt.name);
      } else {
        this.spellNames.add(stmt.name.name);
        this.result.spells.push(stmt);
      }
    }
    const target = this.declare(stmt, stmt.name);
    // A function may call itself: its name is usable before the body is resolved.
    if (target.kind === 'local') this.markInitialized();
    this.functionBody(stmt, kind);
  }

  private functionBody(stmt: A.FunctionStmt, kind: A.FunctionKind): void {
    const fn = new FunctionScope(this.fn, kind, stmt);
    this.fn = fn;
    this.beginScope(stmt.loc.end);
    for (const param of stmt.params) {
      this.addLocal(param, 'parameter', stmt);
      this.markInitialized();
    }
    this.statements(stmt.body);
    this.fn = fn.enclosing!;
    this.result.functions.set(stmt, { upvalues: fn.upvalues });
  }

  private classDeclaration(stmt: A.ClassStmt): void {
    const target = this.declare(stmt, stmt.name);
    if (target.kind === 'local') this.markInitialized();
    const classScope: ClassScope = { enclosing: this.currentClass, hasSuperclass: false };
    this.currentClass = classScope;
    const superclass = stmt.superclass;
    if (superclass) {
      if (superclass.name.name === stmt.name.name && superclass.name.name !== '') {
        this.errorAt("A class can't inherit from itself.", superclass.name);
      }
      this.expression(superclass);
      this.beginScope(stmt.loc.end);
      this.result.superSlots.set(stmt, this.pushLocal('super', superclass.name));
      this.markInitialized();
      classScope.hasSuperclass = true;
    }
    for (const method of stmt.methods) this.functionBody(method, method.functionKind);
    if (superclass) this.result.scopeExits.set(stmt, this.endScope());
    this.currentClass = classScope.enclosing;
  }

  private returnStatement(stmt: A.ReturnStmt): void {
    if (this.fn.kind === 'script') this.error("Can't return from top-level code.", stmt.keywordLoc, 'return');
    if (stmt.value) {
      if (this.fn.kind === 'initializer') this.error("Can't return a value from an initializer.", stmt.keywordLoc, 'return');
      this.expression(stmt.value);
    }
  }

  // ---- expressions ----------------------------------------------------

  private expression(expr: A.Expr): void {
    switch (expr.kind) {
      case 'Literal':
      case 'ErrorExpr':
        return;
      case 'Variable':
        this.result.refs.set(expr, this.lookup(expr.name, true));
        return;
      case 'Assign':
        this.expression(expr.value);
        this.result.refs.set(expr, this.lookup(expr.name, false));
        return;
      case 'Binary':
      case 'Logical': {
        // Walk a left-deep chain (`a + b + c + …`) in a loop: long chains cost no stack.
        const rights: A.Expr[] = [];
        let left: A.Expr = expr;
        while (left.kind === 'Binary' || left.kind === 'Logical') {
          rights.push(left.right);
          left = left.left;
        }
        this.expression(left);
        for (let i = rights.length - 1; i >= 0; i--) this.expression(rights[i]!);
        return;
      }
      case 'Unary':
        this.expression(expr.operand);
        return;
      case 'Grouping':
        this.expression(expr.expression);
        return;
      case 'Call':
        return this.call(expr);
      case 'Get':
        this.expression(expr.object);
        return;
      case 'Set':
        this.expression(expr.object);
        this.expression(expr.value);
        return;
      case 'Index':
        this.expression(expr.object);
        this.expression(expr.index);
        return;
      case 'SetIndex':
        this.expression(expr.object);
        this.expression(expr.index);
        this.expression(expr.value);
        return;
      case 'This':
        if (this.currentClass === null) {
          this.error("Can't use 'this' outside of a class.", expr.loc, 'this');
          return;
        }
        this.result.refs.set(expr, this.lookupHidden('this', expr.loc));
        return;
      case 'Super':
        return this.superExpression(expr);
      case 'List':
        for (const element of expr.elements) this.expression(element);
        return;
      case 'Map':
        for (const entry of expr.entries) {
          this.expression(entry.key);
          this.expression(entry.value);
        }
        return;
      case 'Template':
        for (const part of expr.expressions) this.expression(part);
        return;
    }
  }

  private call(expr: A.CallExpr): void {
    const callee = expr.callee;
    if (callee.kind === 'Variable') {
      const ref = this.lookup(callee.name, true);
      this.result.refs.set(callee, ref);
      // A recovered call's argument count is a guess: its syntax error is the message, not an arity one.
      if (ref.kind === 'host' && expr.recovered !== true) this.checkHostCall(callee.name, expr, ref.index);
    } else {
      this.expression(callee);
    }
    for (const arg of expr.args) this.expression(arg);
  }

  /** Host calls are checked here, at compile time: the editor shows a wrong arity before anything runs. */
  private checkHostCall(name: A.Identifier, expr: A.CallExpr, index: number): void {
    const spec = this.hostSpecs.get(name.name)!;
    const { min, max } = hostArity(spec);
    const count = expr.args.length;
    if (count < min || count > max) {
      this.error(hostArityMessage(spec, count), expr.loc, name.name);
      return;
    }
    const arities = this.result.hostImports[index]!.arities;
    if (!arities.includes(count)) arities.push(count);
    this.checkLiteralArguments(spec, expr);
  }

  /**
   * A literal of the wrong type (`damage(target, "lots")`) can never work:
   * it is a compile error, worded as the run-time check words it.
   */
  private checkLiteralArguments(spec: HostFunctionSpec, expr: A.CallExpr): void {
    expr.args.forEach((arg, i) => {
      const type = spec.params[i]?.type;
      const literal = literalType(arg);
      if (type === undefined || type === 'any' || literal === null || literal === type) return;
      this.error(`Argument ${i + 1} of ${spec.name}() must be ${describeType(type)}.`, arg.loc, literalText(arg));
    });
  }

  private superExpression(expr: A.SuperExpr): void {
    if (this.currentClass === null) {
      this.error("Can't use 'super' outside of a class.", expr.keywordLoc, 'super');
      return;
    }
    if (!this.currentClass.hasSuperclass) {
      this.error("Can't use 'super' in a class with no superclass.", expr.keywordLoc, 'super');
      return;
    }
    const self = this.lookupHidden('this', expr.keywordLoc);
    const superclass = this.lookupHidden('super', expr.keywordLoc);
    this.result.superRefs.set(expr, { self, superclass });
  }
}

function declarationKind(stmt: A.VarStmt | A.FunctionStmt | A.ClassStmt): SymbolKind {
  if (stmt.kind === 'Var') return 'variable';
  if (stmt.kind === 'Class') return 'class';
  return stmt.functionKind === 'spell' ? 'spell' : 'function';
}

/** The type of a literal argument (`3`, `-3`, `"x"`, `[…]`, `{…}`, a template), or null when only running it can tell. */
function literalType(expr: A.Expr): ValueType | null {
  switch (expr.kind) {
    case 'Literal':
      return expr.value === null ? 'nil' : typeof expr.value === 'number' ? 'number' : typeof expr.value === 'string' ? 'string' : 'bool';
    case 'Unary':
      return expr.operator === '-' && literalType(expr.operand) === 'number' ? 'number' : null;
    case 'Grouping':
      return literalType(expr.expression);
    case 'List':
      return 'list';
    case 'Map':
      return 'map';
    case 'Template':
      return 'string';
    default:
      return null;
  }
}

/** The token a literal-argument error is "at": the literal as written, or '' when it is more than one token. */
function literalText(expr: A.Expr): string {
  if (expr.kind !== 'Literal') return '';
  if (typeof expr.value === 'string') return expr.loc.end - expr.loc.start === expr.value.length + 2 ? `"${expr.value}"` : '';
  return expr.value === null ? 'nil' : String(expr.value);
}

/** Sort host imports' arities for a stable module (verifier and .spb readers like determinism). */
export function finishHostImports(imports: { name: string; arities: number[] }[]): HostImport[] {
  return imports.map((h) => ({ name: h.name, arities: [...h.arities].sort((a, b) => a - b) }));
}
