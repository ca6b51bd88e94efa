/**
 * Expressions → layout. Tokens are taken from the stream in source order;
 * the tree only decides the spacing and where a long expression may break:
 *
 * - after a binary operator (a chain of one precedence level is one group,
 *   its continuation lines indented once);
 * - inside the brackets of a call, a list, a map or a parameter list: one
 *   element per line, the closing bracket on its own line.
 *
 * Grouping parentheses are the source's (the tree keeps them), so no
 * parenthesis is ever added or removed.
 */

import type { BinaryExpr, Expr, LogicalExpr } from '../ast.js';
import { precedenceOfOperator as precedenceOf } from '../tokens.js';
import { flat, group, indent, join, line, softline, type Doc } from './doc.js';
import type { TokenStream } from './token-stream.js';

export function printExpr(ts: TokenStream, expr: Expr): Doc {
  switch (expr.kind) {
    case 'Literal':
    case 'Variable':
    case 'This':
      return ts.take();
    case 'Grouping':
      return [ts.take('('), printExpr(ts, expr.expression), ts.take(')')];
    case 'Unary':
      return [ts.take(expr.operator), printExpr(ts, expr.operand)];
    case 'Binary':
    case 'Logical':
      return printOperatorChain(ts, expr);
    case 'Assign':
      return [ts.take(), ' ', ts.take(expr.operator), ' ', printExpr(ts, expr.value)];
    case 'Get':
      return [printExpr(ts, expr.object), ts.take('.'), ts.take()];
    case 'Set':
      return [printExpr(ts, expr.object), ts.take('.'), ts.take(), ' ', ts.take(expr.operator), ' ', printExpr(ts, expr.value)];
    case 'Index':
      return [printExpr(ts, expr.object), ts.take('['), printExpr(ts, expr.index), ts.take(']')];
    case 'SetIndex':
      return [
        printExpr(ts, expr.object),
        ts.take('['),
        printExpr(ts, expr.index),
        ts.take(']'),
        ' ',
        ts.take(expr.operator),
        ' ',
        printExpr(ts, expr.value),
      ];
    case 'Super':
      return [ts.take('super'), ts.take('.'), ts.take()];
    case 'Call': {
      const callee = printExpr(ts, expr.callee);
      return [callee, bracketed(ts, '(', expr.args, (arg) => printExpr(ts, arg), ')')];
    }
    case 'List':
      return bracketed(ts, '[', expr.elements, (element) => printExpr(ts, element), ']');
    case 'Map':
      return bracketed(ts, '{', expr.entries, (entry) => [printExpr(ts, entry.key), ts.take(':'), ' ', printExpr(ts, entry.value)], '}');
    case 'Template': {
      // `${` and `}` belong to the string tokens around each substitution: nothing goes between them.
      const parts: Doc[] = [ts.take()];
      for (const substitution of expr.expressions) parts.push(flat(printExpr(ts, substitution)), ts.take());
      return parts;
    }
    case 'ErrorExpr':
      throw new Error('the formatter only prints programs without syntax errors');
  }
}

/**
 * `a + b - c`: the operands of one precedence level, left-associated, as one
 * group that breaks after its operators. Walking down the left spine (not
 * recursing) keeps a 10,000-term sum from exhausting the stack.
 */
function printOperatorChain(ts: TokenStream, expr: BinaryExpr | LogicalExpr): Doc {
  const level = precedenceOf(expr.operator);
  const spine: (BinaryExpr | LogicalExpr)[] = [expr];
  let first: Expr = expr.left;
  while ((first.kind === 'Binary' || first.kind === 'Logical') && precedenceOf(first.operator) === level) {
    spine.push(first);
    first = first.left;
  }
  const head = printExpr(ts, first);
  const tail: Doc[] = [];
  for (let i = spine.length - 1; i >= 0; i--) {
    const node = spine[i]!;
    tail.push(' ', ts.take(node.operator), line, printExpr(ts, node.right));
  }
  return group([head, indent(tail)]);
}

/**
 * `open items… close` with a `,` token after each item but the last: on one
 * line if it fits, else one item per line, indented, with the closing
 * bracket (and any comment before it) on lines of their own.
 */
export function bracketed<T>(ts: TokenStream, open: string, items: readonly T[], print: (item: T) => Doc, close: string): Doc {
  const opening = ts.take(open);
  const elements = items.map((item, i) => [print(item), i < items.length - 1 ? ts.take(',') : '']);
  const closing = ts.takeSplit(close);
  if (elements.length === 0) return [opening, indent(closing.leading), closing.token];
  return group([opening, indent([softline, join(line, elements), closing.leading]), softline, closing.token]);
}
