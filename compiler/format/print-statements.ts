/**
 * Statements → layout: one statement per line; `{` at the end of the line
 * that opens a block, `}` on a line of its own; `} else {` on one line; a
 * body without braces stays on its statement's line when it fits (else it
 * goes on the next line, indented). Empty lines between statements are
 * kept (at most one), never at the start or end of a block.
 */

import type { ClassStmt, ForInStmt, ForStmt, FunctionStmt, IfStmt, Program, Stmt } from '../ast.js';
import { group, hardline, indent, line, type Doc } from './doc.js';
import { bracketed, printExpr } from './print-expressions.js';
import type { TokenStream } from './token-stream.js';

export function printProgram(ts: TokenStream, program: Program): Doc {
  const statements = program.body.map((stmt) => printStmt(ts, stmt));
  return [statementLines(statements), ts.rest()];
}

function statementLines(statements: readonly Doc[]): Doc[] {
  return statements.map((stmt, i) => (i === 0 ? stmt : [hardline, stmt]));
}

function printStmt(ts: TokenStream, stmt: Stmt): Doc {
  switch (stmt.kind) {
    case 'ExpressionStmt':
      return [printExpr(ts, stmt.expression), ts.take(';')];
    case 'Print':
      return [ts.take('print'), ' ', printExpr(ts, stmt.expression), ts.take(';')];
    case 'Var': {
      const head = [ts.take('var'), ' ', ts.take()];
      const initializer = stmt.initializer === null ? '' : [' ', ts.take('='), ' ', printExpr(ts, stmt.initializer)];
      return [head, initializer, ts.take(';')];
    }
    case 'Return':
      return [ts.take('return'), stmt.value === null ? '' : [' ', printExpr(ts, stmt.value)], ts.take(';')];
    case 'Block':
      return printBlock(ts, stmt.body);
    case 'If':
      return printIf(ts, stmt);
    case 'While':
      return [ts.take('while'), ' ', ts.take('('), printExpr(ts, stmt.condition), ts.take(')'), printBody(ts, stmt.body)];
    case 'For':
      return printFor(ts, stmt);
    case 'ForIn':
      return printForIn(ts, stmt);
    case 'Function':
      return printFunction(ts, stmt);
    case 'Class':
      return printClass(ts, stmt);
    case 'ErrorStmt':
      throw new Error('the formatter only prints programs without syntax errors');
  }
}

/** `{`, the statements indented, `}`; `{}` when there is nothing inside (not even a comment). */
function printBlock(ts: TokenStream, body: readonly Stmt[]): Doc {
  return braced(ts, () => body.map((stmt) => printStmt(ts, stmt)));
}

/** A `{ … }` whose members (statements or methods) each take their own lines. */
function braced(ts: TokenStream, members: () => Doc[]): Doc {
  const open = ts.take('{');
  const inside = members();
  const close = ts.takeSplit('}');
  return [open, indent([inside.length === 0 ? '' : hardline, statementLines(inside), close.leading]), inside.length === 0 ? '' : hardline, close.token];
}

/** The statement after `if (…)`, `while (…)`, `for (…)` or `else`. */
function printBody(ts: TokenStream, body: Stmt): Doc {
  if (body.kind === 'Block') return [' ', printBlock(ts, body.body)];
  return group(indent([line, printStmt(ts, body)]));
}

function printIf(ts: TokenStream, stmt: IfStmt): Doc {
  const parts: Doc[] = [ts.take('if'), ' ', ts.take('('), printExpr(ts, stmt.condition), ts.take(')'), printBody(ts, stmt.thenBranch)];
  const otherwise = stmt.elseBranch;
  if (otherwise === null) return parts;
  parts.push(stmt.thenBranch.kind === 'Block' ? ' ' : hardline, ts.take('else'));
  parts.push(otherwise.kind === 'If' ? [' ', printIf(ts, otherwise)] : printBody(ts, otherwise));
  return parts;
}

/** `for (init; condition; increment)`, any clause possibly empty: `for (;;)`. */
function printFor(ts: TokenStream, stmt: ForStmt): Doc {
  const head: Doc[] = [ts.take('for'), ' ', ts.take('(')];
  head.push(stmt.initializer === null ? ts.take(';') : printStmt(ts, stmt.initializer));
  head.push(stmt.condition === null ? '' : [' ', printExpr(ts, stmt.condition)], ts.take(';'));
  head.push(stmt.increment === null ? '' : [' ', printExpr(ts, stmt.increment)], ts.take(')'));
  return [head, printBody(ts, stmt.body)];
}

/** `for (x in list)` or `for (var x in list)`. */
function printForIn(ts: TokenStream, stmt: ForInStmt): Doc {
  const head: Doc[] = [ts.take('for'), ' ', ts.take('(')];
  if (ts.peek() === 'var') head.push(ts.take('var'), ' ');
  head.push(ts.take(), ' ', ts.take('in'), ' ', printExpr(ts, stmt.iterable), ts.take(')'));
  return [head, printBody(ts, stmt.body)];
}

/** `fun name(params) {…}`, `spell name(params) {…}`, or a method `name(params) {…}`. */
function printFunction(ts: TokenStream, stmt: FunctionStmt): Doc {
  const keyword = stmt.functionKind === 'function' ? [ts.take('fun'), ' '] : stmt.functionKind === 'spell' ? [ts.take('spell'), ' '] : '';
  const name = ts.take();
  const params = bracketed(ts, '(', stmt.params, () => ts.take(), ')');
  return [keyword, name, params, ' ', printBlock(ts, stmt.body)];
}

function printClass(ts: TokenStream, stmt: ClassStmt): Doc {
  const head: Doc[] = [ts.take('class'), ' ', ts.take()];
  if (stmt.superclass !== null) head.push(' ', ts.take('<'), ' ', ts.take());
  return [head, ' ', braced(ts, () => stmt.methods.map((method) => printFunction(ts, method)))];
}
