/**
 * A visit of every statement and expression of a tree, for the passes and
 * tools that read it whole (the entity-property and string + number checks,
 * the language service's indexes).
 */

import type * as A from './ast.js';

export interface Visitor {
  expr?(e: A.Expr): void;
  stmt?(s: A.Stmt): void;
}

/** Visit every statement and expression, with an explicit stack (deep programs cost no JS stack). */
export function walk(body: readonly A.Stmt[], visitor: Visitor): void {
  const stack: (A.Stmt | A.Expr)[] = [...body].reverse();
  const push = (...nodes: (A.Stmt | A.Expr | null | undefined)[]) => {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const n = nodes[i];
      if (n) stack.push(n);
    }
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isStmt(node)) {
      visitor.stmt?.(node);
      pushStmtChildren(node, push);
    } else {
      visitor.expr?.(node);
      pushExprChildren(node, push);
    }
  }
}

const STMT_KINDS = new Set(['ExpressionStmt', 'Print', 'Var', 'Block', 'If', 'While', 'For', 'ForIn', 'Function', 'Class', 'Return', 'ErrorStmt']);

function isStmt(node: A.Stmt | A.Expr): node is A.Stmt {
  return STMT_KINDS.has(node.kind);
}

type Push = (...nodes: (A.Stmt | A.Expr | null | undefined)[]) => void;

function pushStmtChildren(s: A.Stmt, push: Push): void {
  switch (s.kind) {
    case 'ExpressionStmt':
    case 'Print':
      return push(s.expression);
    case 'Var':
      return push(s.initializer);
    case 'Block':
      return push(...s.body);
    case 'If':
      return push(s.condition, s.thenBranch, s.elseBranch);
    case 'While':
      return push(s.condition, s.body);
    case 'For':
      return push(s.initializer, s.condition, s.increment, s.body);
    case 'ForIn':
      return push(s.iterable, s.body);
    case 'Function':
      return push(...s.body);
    case 'Class':
      return push(s.superclass, ...s.methods);
    case 'Return':
      return push(s.value);
    default:
      return;
  }
}

function pushExprChildren(e: A.Expr, push: Push): void {
  switch (e.kind) {
    case 'Assign':
      return push(e.value);
    case 'Binary':
    case 'Logical':
      return push(e.left, e.right);
    case 'Unary':
      return push(e.operand);
    case 'Grouping':
      return push(e.expression);
    case 'Call':
      return push(e.callee, ...e.args);
    case 'Get':
      return push(e.object);
    case 'Set':
      return push(e.object, e.value);
    case 'Index':
      return push(e.object, e.index);
    case 'SetIndex':
      return push(e.object, e.index, e.value);
    case 'List':
      return push(...e.elements);
    case 'Map':
      return push(...e.entries.flatMap((entry) => [entry.key, entry.value]));
    case 'Template':
      return push(...e.expressions);
    default:
      return;
  }
}
