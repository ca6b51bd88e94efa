/**
 * The emitter: resolved AST → Module. It follows clox's compiler.c code
 * shapes (jumps for if/while/for/and/or, the class declaration sequence,
 * implicit returns) and reads every slot and upvalue from the resolver's
 * Resolution, so it never looks a name up itself.
 */

import type { FunctionKind as ProtoKind, FunctionProto, Module, SpellEntry } from '../vm/module.js';
import { Op } from '../vm/opcodes.js';
import type * as A from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import { FunctionBuilder } from './function-builder.js';
import { MAX_CODE_WORDS, MAX_CONSTANTS, MAX_FUNCTIONS, MAX_LIST_ELEMENTS, MAX_MAP_ENTRIES, MAX_TEMPLATE_PARTS, MAX_TOTAL_CODE_WORDS } from './limits.js';
import { diagnosticAt } from './parse-errors.js';
import { finishHostImports, type DeclarationTarget, type Resolution, type VariableRef } from './resolver.js';

export interface EmitResult {
  readonly module: Module;
  readonly diagnostics: Diagnostic[];
}

export function emitModule(program: A.Program, resolution: Resolution, sourceName: string): EmitResult {
  return new Emitter(resolution).run(program, sourceName);
}

const COMPOUND: Record<Exclude<A.AssignOperator, '='>, number> = {
  '+=': Op.ADD,
  '-=': Op.SUBTRACT,
  '*=': Op.MULTIPLY,
  '/=': Op.DIVIDE,
  '%=': Op.MODULO,
};

class Emitter {
  private readonly constants: (number | string)[] = [];
  private readonly numberConstants = new Map<number, number>();
  private readonly stringConstants = new Map<string, number>();
  private readonly functions: (FunctionProto | null)[] = [];
  private readonly spells: SpellEntry[] = [];
  private readonly spellNodes: Set<A.FunctionStmt>;
  private readonly diagnostics: Diagnostic[] = [];
  private fn!: FunctionBuilder;
  private readonly limitReported = new Set<string>();
  private totalCode = 0;

  constructor(private readonly res: Resolution) {
    this.spellNodes = new Set(res.spells);
  }

  run(program: A.Program, sourceName: string): EmitResult {
    const index = this.reserveFunction(program.loc);
    this.fn = new FunctionBuilder('', 'script', 0);
    for (const stmt of program.body) this.statement(stmt);
    this.fn.line = program.loc.endLine;
    this.emitReturn('script');
    this.functions[index] = this.fn.finish([]);
    this.checkCodeSize(this.fn, program.loc, '');
    return {
      module: {
        constants: this.constants,
        functions: this.functions as FunctionProto[],
        globals: [...this.res.globals],
        hostImports: finishHostImports(this.res.hostImports),
        spells: this.spells,
        sourceName,
      },
      diagnostics: this.diagnostics,
    };
  }

  // ---- pools and limits -----------------------------------------------

  private limit(message: string, loc: A.SourceSpan, token: string | null): void {
    if (this.limitReported.has(message)) return;
    this.limitReported.add(message);
    this.diagnostics.push(diagnosticAt('error', message, loc, token));
  }

  private constant(value: number | string, loc: A.SourceSpan): number {
    const pool = typeof value === 'number' ? this.numberConstants : this.stringConstants;
    const existing = (pool as Map<number | string, number>).get(value);
    if (existing !== undefined) return existing;
    if (this.constants.length >= MAX_CONSTANTS) {
      this.limit('Too many constants in one module.', loc, null);
      return 0;
    }
    const index = this.constants.length;
    this.constants.push(value);
    (pool as Map<number | string, number>).set(value, index);
    return index;
  }

  private reserveFunction(loc: A.SourceSpan): number {
    if (this.functions.length >= MAX_FUNCTIONS) {
      this.limit('Too many functions in one module.', loc, null);
      return 0;
    }
    this.functions.push(null);
    return this.functions.length - 1;
  }

  private checkCodeSize(fn: FunctionBuilder, loc: A.SourceSpan, name: string): void {
    if (fn.length > MAX_CODE_WORDS) this.limit('Function too large.', loc, name);
    this.totalCode += fn.length;
    if (this.totalCode > MAX_TOTAL_CODE_WORDS) this.limit('Program too large.', loc, name);
  }

  // ---- variables ------------------------------------------------------

  private getVariable(ref: VariableRef | undefined): void {
    if (ref === undefined) return this.fn.emit(Op.NIL); // only reachable after a reported error
    switch (ref.kind) {
      case 'local':
        return this.fn.emit1(Op.GET_LOCAL, ref.slot);
      case 'upvalue':
        return this.fn.emit1(Op.GET_UPVALUE, ref.index);
      case 'global':
        return this.fn.emit1(Op.GET_GLOBAL, ref.slot);
      case 'host':
        return this.fn.emit1(Op.HOST_FUNCTION, ref.index);
    }
  }

  private setVariable(ref: VariableRef | undefined): void {
    if (ref === undefined) return;
    switch (ref.kind) {
      case 'local':
        return this.fn.emit1(Op.SET_LOCAL, ref.slot);
      case 'upvalue':
        return this.fn.emit1(Op.SET_UPVALUE, ref.index);
      case 'global':
        return this.fn.emit1(Op.SET_GLOBAL, ref.slot);
      case 'host':
        return; // the resolver never resolves an assignment to a host function
    }
  }

  /** The value of a declaration is on the stack: store it (global) or keep it as the local's slot. */
  private define(target: DeclarationTarget | undefined, name: string): void {
    if (target === undefined) return this.fn.emit(Op.POP);
    if (target.kind === 'global') this.fn.emit1(Op.DEFINE_GLOBAL, target.slot);
    else this.fn.openLocal(name, target.slot);
  }

  private getDeclared(target: DeclarationTarget | undefined): void {
    if (target === undefined) return this.fn.emit(Op.NIL);
    this.fn.emit1(target.kind === 'global' ? Op.GET_GLOBAL : Op.GET_LOCAL, target.slot);
  }

  /** Pop (or close, if captured) the locals a scope leaves, innermost first. */
  private endScope(exits: readonly boolean[] | undefined): void {
    if (exits === undefined) return;
    this.fn.closeLocals(exits.length);
    for (const captured of exits) this.fn.emit(captured ? Op.CLOSE_UPVALUE : Op.POP);
  }

  // ---- statements -----------------------------------------------------

  private statement(stmt: A.Stmt): void {
    this.fn.line = stmt.loc.line;
    switch (stmt.kind) {
      case 'ExpressionStmt':
        this.expression(stmt.expression);
        this.fn.emit(Op.POP);
        return;
      case 'Print':
        this.expression(stmt.expression);
        this.fn.line = stmt.loc.endLine;
        this.fn.emit(Op.PRINT);
        return;
      case 'Var':
        if (stmt.initializer) this.expression(stmt.initializer);
        else this.fn.emit(Op.NIL);
        this.define(this.res.declarations.get(stmt), stmt.name.name);
        return;
      case 'Block':
        for (const inner of stmt.body) this.statement(inner);
        this.fn.line = stmt.loc.endLine;
        this.endScope(this.res.scopeExits.get(stmt));
        return;
      case 'If':
        return this.ifStatement(stmt);
      case 'While':
        return this.whileStatement(stmt);
      case 'For':
        return this.forStatement(stmt);
      case 'ForIn':
        return this.forInStatement(stmt);
      case 'Function':
        this.function(stmt, this.protoKind(stmt));
        this.define(this.res.declarations.get(stmt), stmt.name.name);
        return;
      case 'Class':
        return this.classDeclaration(stmt);
      case 'Return':
        return this.returnStatement(stmt);
      case 'ErrorStmt':
        return;
    }
  }

  /** Only the resolver's accepted (top-level, unique) spells enter the spell table; any other is a plain function. */
  private protoKind(stmt: A.FunctionStmt): ProtoKind {
    if (stmt.functionKind !== 'spell') return stmt.functionKind;
    return this.spellNodes.has(stmt) ? 'spell' : 'function';
  }

  /** clox's shape, with an else-if chain emitted in a loop (same code as the recursion, no stack). */
  private ifStatement(stmt: A.IfStmt): void {
    const endJumps = [];
    let link: A.IfStmt = stmt;
    for (;;) {
      this.fn.line = link.loc.line;
      this.expression(link.condition);
      const thenJump = this.fn.emitJump(Op.JUMP_IF_FALSE);
      this.fn.emit(Op.POP);
      this.statement(link.thenBranch);
      endJumps.push(this.fn.emitJump(Op.JUMP));
      this.fn.patchJump(thenJump);
      this.fn.emit(Op.POP);
      if (link.elseBranch?.kind !== 'If') break;
      link = link.elseBranch;
    }
    if (link.elseBranch) this.statement(link.elseBranch);
    for (let i = endJumps.length - 1; i >= 0; i--) this.fn.patchJump(endJumps[i]!);
  }

  private whileStatement(stmt: A.WhileStmt): void {
    const loopStart = this.fn.length;
    this.expression(stmt.condition);
    const exitJump = this.fn.emitJump(Op.JUMP_IF_FALSE);
    this.fn.emit(Op.POP);
    this.statement(stmt.body);
    this.fn.emitLoop(loopStart);
    this.fn.patchJump(exitJump);
    this.fn.emit(Op.POP);
  }

  private forStatement(stmt: A.ForStmt): void {
    if (stmt.initializer) this.statement(stmt.initializer);
    let loopStart = this.fn.length;
    let exitJump = null;
    if (stmt.condition) {
      this.fn.line = stmt.condition.loc.line;
      this.expression(stmt.condition);
      exitJump = this.fn.emitJump(Op.JUMP_IF_FALSE);
      this.fn.emit(Op.POP);
    }
    if (stmt.increment) {
      const bodyJump = this.fn.emitJump(Op.JUMP);
      const incrementStart = this.fn.length;
      this.fn.line = stmt.increment.loc.line;
      this.expression(stmt.increment);
      this.fn.emit(Op.POP);
      this.fn.emitLoop(loopStart);
      loopStart = incrementStart;
      this.fn.patchJump(bodyJump);
    }
    this.statement(stmt.body);
    this.fn.emitLoop(loopStart);
    if (exitJump) {
      this.fn.patchJump(exitJump);
      this.fn.emit(Op.POP);
    }
    this.endScope(this.res.scopeExits.get(stmt));
  }

  private forInStatement(stmt: A.ForInStmt): void {
    const info = this.res.forIn.get(stmt);
    this.expression(stmt.iterable);
    if (info === undefined) return this.fn.emit(Op.POP);
    this.fn.line = stmt.loc.line;
    this.fn.openLocal('(list)', info.slot);
    this.fn.emit1(Op.CONSTANT, this.constant(0, stmt.loc));
    this.fn.openLocal('(index)', info.slot + 1);
    const loopStart = this.fn.length;
    const exitJump = this.fn.emitJump(Op.FOR_ITER, info.slot);
    this.fn.openLocal(stmt.variable.name, info.slot + 2);
    this.statement(stmt.body);
    this.fn.line = stmt.loc.endLine;
    this.endScope([info.variableCaptured]);
    this.fn.emitLoop(loopStart);
    this.fn.patchJump(exitJump);
    this.endScope(this.res.scopeExits.get(stmt));
  }

  private returnStatement(stmt: A.ReturnStmt): void {
    if (stmt.value) {
      this.expression(stmt.value);
      this.fn.line = stmt.keywordLoc.line;
      this.fn.emit(Op.RETURN);
    } else {
      this.emitReturn(this.fn.kind);
    }
  }

  /** The implicit return: an initializer returns `this`, everything else nil. */
  private emitReturn(kind: ProtoKind): void {
    if (kind === 'initializer') this.fn.emit1(Op.GET_LOCAL, 0);
    else this.fn.emit(Op.NIL);
    this.fn.emit(Op.RETURN);
  }

  /** Compile a function body into its own prototype and push a closure over it. */
  private function(stmt: A.FunctionStmt, kind: ProtoKind): void {
    const index = this.reserveFunction(stmt.loc);
    const enclosing = this.fn;
    const fn = new FunctionBuilder(stmt.name.name, kind, stmt.params.length);
    fn.line = stmt.loc.line;
    if (kind === 'method' || kind === 'initializer') fn.openLocal('this', 0);
    stmt.params.forEach((param, i) => fn.openLocal(param.name, i + 1));
    this.fn = fn;
    for (const inner of stmt.body) this.statement(inner);
    fn.line = stmt.closeLoc.line;
    this.emitReturn(kind);
    this.fn = enclosing;
    this.checkCodeSize(fn, stmt.name.loc, stmt.name.name);
    this.functions[index] = fn.finish(this.res.functions.get(stmt)?.upvalues ?? []);
    this.fn.line = stmt.loc.line;
    this.fn.emit1(Op.CLOSURE, index);
    if (kind === 'spell') this.spells.push({ name: stmt.name.name, functionIndex: index });
  }

  private classDeclaration(stmt: A.ClassStmt): void {
    const target = this.res.declarations.get(stmt);
    const name = this.constant(stmt.name.name, stmt.name.loc);
    this.fn.emit1(Op.CLASS, name);
    this.define(target, stmt.name.name);
    const superclass = stmt.superclass;
    if (superclass) {
      this.getVariable(this.res.refs.get(superclass));
      // The superclass stays on the stack as the hidden local `super`.
      const slot = this.res.superSlots.get(stmt);
      if (slot !== undefined) this.fn.openLocal('super', slot);
      this.getDeclared(target);
      this.fn.emit(Op.INHERIT);
    }
    this.getDeclared(target);
    for (const method of stmt.methods) {
      this.function(method, method.functionKind === 'initializer' ? 'initializer' : 'method');
      this.fn.line = method.loc.line;
      this.fn.emit1(Op.METHOD, this.constant(method.name.name, method.name.loc));
    }
    this.fn.line = stmt.loc.endLine;
    this.fn.emit(Op.POP);
    if (superclass) this.endScope(this.res.scopeExits.get(stmt));
  }

  // ---- expressions ----------------------------------------------------

  private expression(expr: A.Expr): void {
    switch (expr.kind) {
      case 'Literal':
        return this.literal(expr);
      case 'Variable':
        this.fn.line = expr.loc.line;
        return this.getVariable(this.res.refs.get(expr));
      case 'Assign':
        return this.assign(expr);
      case 'Binary':
        return this.binary(expr);
      case 'Logical':
        return this.logical(expr);
      case 'Unary':
        this.expression(expr.operand);
        this.fn.line = expr.operatorLoc.line;
        return this.fn.emit(expr.operator === '-' ? Op.NEGATE : Op.NOT);
      case 'Grouping':
        return this.expression(expr.expression);
      case 'Call':
        return this.call(expr);
      case 'Get':
        this.expression(expr.object);
        this.fn.line = expr.name.loc.line;
        return this.fn.emit1(Op.GET_PROPERTY, this.constant(expr.name.name, expr.name.loc));
      case 'Set':
        return this.setProperty(expr);
      case 'Index':
        this.expression(expr.object);
        this.expression(expr.index);
        this.fn.line = expr.loc.endLine;
        return this.fn.emit(Op.GET_INDEX);
      case 'SetIndex':
        return this.setIndex(expr);
      case 'This':
        this.fn.line = expr.loc.line;
        return this.getVariable(this.res.refs.get(expr));
      case 'Super':
        return this.superAccess(expr);
      case 'List':
        return this.list(expr);
      case 'Map':
        return this.map(expr);
      case 'Template':
        return this.template(expr);
      case 'ErrorExpr':
        return this.fn.emit(Op.NIL);
    }
  }

  private literal(expr: A.LiteralExpr): void {
    this.fn.line = expr.loc.line;
    const value = expr.value;
    if (value === null) this.fn.emit(Op.NIL);
    else if (value === true) this.fn.emit(Op.TRUE);
    else if (value === false) this.fn.emit(Op.FALSE);
    else this.fn.emit1(Op.CONSTANT, this.constant(value, expr.loc));
  }

  private assign(expr: A.AssignExpr): void {
    const ref = this.res.refs.get(expr);
    if (expr.operator !== '=') this.getVariable(ref);
    this.expression(expr.value);
    this.fn.line = expr.operatorLoc.line;
    if (expr.operator !== '=') this.fn.emit(COMPOUND[expr.operator]);
    this.setVariable(ref);
  }

  private setProperty(expr: A.SetExpr): void {
    const name = this.constant(expr.name.name, expr.name.loc);
    this.expression(expr.object);
    if (expr.operator !== '=') {
      this.fn.emit(Op.DUP);
      this.fn.emit1(Op.GET_PROPERTY, name);
    }
    this.expression(expr.value);
    this.fn.line = expr.operatorLoc.line;
    if (expr.operator !== '=') this.fn.emit(COMPOUND[expr.operator]);
    this.fn.emit1(Op.SET_PROPERTY, name);
  }

  private setIndex(expr: A.SetIndexExpr): void {
    this.expression(expr.object);
    this.expression(expr.index);
    if (expr.operator !== '=') {
      this.fn.emit(Op.DUP2);
      this.fn.emit(Op.GET_INDEX);
    }
    this.expression(expr.value);
    this.fn.line = expr.operatorLoc.line;
    if (expr.operator !== '=') this.fn.emit(COMPOUND[expr.operator]);
    this.fn.emit(Op.SET_INDEX);
  }

  /** A left-deep chain (`a + b + c + …`) is walked in a loop, so 100,000 terms cost no stack. */
  private binary(expr: A.BinaryExpr): void {
    const spine: A.BinaryExpr[] = [];
    let left: A.Expr = expr;
    while (left.kind === 'Binary') {
      spine.push(left);
      left = left.left;
    }
    this.expression(left);
    for (let i = spine.length - 1; i >= 0; i--) {
      const node = spine[i]!;
      this.expression(node.right);
      this.binaryOperator(node);
    }
  }

  private binaryOperator(expr: A.BinaryExpr): void {
    this.fn.line = expr.operatorLoc.line;
    switch (expr.operator) {
      case '+':
        return this.fn.emit(Op.ADD);
      case '-':
        return this.fn.emit(Op.SUBTRACT);
      case '*':
        return this.fn.emit(Op.MULTIPLY);
      case '/':
        return this.fn.emit(Op.DIVIDE);
      case '%':
        return this.fn.emit(Op.MODULO);
      case '==':
        return this.fn.emit(Op.EQUAL);
      case '!=':
        this.fn.emit(Op.EQUAL);
        return this.fn.emit(Op.NOT);
      case '<':
        return this.fn.emit(Op.LESS);
      case '>':
        return this.fn.emit(Op.GREATER);
      // As clox: a <= b is !(a > b) and a >= b is !(a < b).
      case '<=':
        this.fn.emit(Op.GREATER);
        return this.fn.emit(Op.NOT);
      case '>=':
        this.fn.emit(Op.LESS);
        return this.fn.emit(Op.NOT);
    }
  }

  private logical(expr: A.LogicalExpr): void {
    this.expression(expr.left);
    this.fn.line = expr.operatorLoc.line;
    if (expr.operator === 'and') {
      const endJump = this.fn.emitJump(Op.JUMP_IF_FALSE);
      this.fn.emit(Op.POP);
      this.expression(expr.right);
      this.fn.patchJump(endJump);
    } else {
      const elseJump = this.fn.emitJump(Op.JUMP_IF_FALSE);
      const endJump = this.fn.emitJump(Op.JUMP);
      this.fn.patchJump(elseJump);
      this.fn.emit(Op.POP);
      this.expression(expr.right);
      this.fn.patchJump(endJump);
    }
  }

  private call(expr: A.CallExpr): void {
    const callee = expr.callee;
    const argc = expr.args.length;
    if (callee.kind === 'Get') {
      // obj.name(args): INVOKE skips the bound method clox would allocate.
      this.expression(callee.object);
      this.arguments(expr);
      this.fn.emit2(Op.INVOKE, this.constant(callee.name.name, callee.name.loc), argc);
      return;
    }
    if (callee.kind === 'Super') {
      const refs = this.res.superRefs.get(callee);
      this.getVariable(refs?.self);
      this.arguments(expr);
      this.getVariable(refs?.superclass);
      this.fn.emit2(Op.SUPER_INVOKE, this.constant(callee.method.name, callee.method.loc), argc);
      return;
    }
    if (callee.kind === 'Variable') {
      const ref = this.res.refs.get(callee);
      if (ref?.kind === 'host') {
        this.arguments(expr);
        this.fn.emit2(Op.CALL_HOST, ref.index, argc);
        return;
      }
    }
    this.expression(callee);
    this.arguments(expr);
    this.fn.emit1(Op.CALL, argc);
  }

  /** Arguments, then the call's line: clox reports a failing call on its closing parenthesis. */
  private arguments(expr: A.CallExpr): void {
    for (const arg of expr.args) this.expression(arg);
    this.fn.line = expr.closeLoc.line;
  }

  private superAccess(expr: A.SuperExpr): void {
    const refs = this.res.superRefs.get(expr);
    this.fn.line = expr.loc.line;
    this.getVariable(refs?.self);
    this.getVariable(refs?.superclass);
    this.fn.emit1(Op.GET_SUPER, this.constant(expr.method.name, expr.method.loc));
  }

  private list(expr: A.ListExpr): void {
    if (expr.elements.length > MAX_LIST_ELEMENTS) {
      this.limit('Too many elements in list literal.', expr.loc, null);
    }
    for (const element of expr.elements) this.expression(element);
    this.fn.line = expr.loc.endLine;
    this.fn.emit1(Op.BUILD_LIST, expr.elements.length);
  }

  /** Keys and values in source order (a later duplicate key wins, as when assigning in order), then BUILD_MAP. */
  private map(expr: A.MapExpr): void {
    if (expr.entries.length > MAX_MAP_ENTRIES) this.limit('Too many entries in map literal.', expr.loc, null);
    for (const entry of expr.entries) {
      this.expression(entry.key);
      this.expression(entry.value);
    }
    this.fn.line = expr.loc.endLine;
    this.fn.emit1(Op.BUILD_MAP, expr.entries.length);
  }

  /** The non-empty text pieces and the expressions, in order, then TEMPLATE (which converts as str() does). */
  private template(expr: A.TemplateExpr): void {
    let parts = 0;
    expr.strings.forEach((text, i) => {
      if (text !== '') {
        this.fn.line = expr.loc.line;
        this.fn.emit1(Op.CONSTANT, this.constant(text, expr.loc));
        parts++;
      }
      const part = expr.expressions[i];
      if (part !== undefined) {
        this.expression(part);
        parts++;
      }
    });
    if (parts > MAX_TEMPLATE_PARTS) this.limit('Too many parts in template string.', expr.loc, null);
    this.fn.line = expr.loc.endLine;
    this.fn.emit1(Op.TEMPLATE, parts);
  }
}
