/**
 * What kind of value an expression holds, where the source says so without
 * running it: a spell parameter that only ever holds what the host cast it
 * with is an entity; `var s = "x";` never reassigned is a string; a host
 * call returns its declared type; `Rune(3)` is an instance of Rune. Anything
 * else is 'unknown'. Completion after `.` offers only what fits the kind.
 */
import type * as A from '../ast.js';
import type { IToken } from 'chevrotain';
import type { SpellSymbol } from '../symbols.js';
import type { ValueType } from '../../vm/value.js';
import type { SpellDocument } from './document.js';
import { BUILTIN_METHODS } from './words.js';

export type ValueKind =
  | { readonly type: 'entity' | 'string' | 'list' | 'map' | 'number' | 'bool' | 'nil' | 'function' | 'unknown' }
  | { readonly type: 'instance'; readonly classNode: A.ClassStmt };

const UNKNOWN: ValueKind = { type: 'unknown' };
/** Deep enough for chains of `var b = a;`, shallow enough that a cycle ends at once. */
const MAX_DEPTH = 16;

function ofType(type: ValueType): ValueKind {
  return type === 'any' ? UNKNOWN : { type };
}

export function kindOfExpression(doc: SpellDocument, expr: A.Expr, depth = 0): ValueKind {
  if (depth > MAX_DEPTH) return UNKNOWN;
  switch (expr.kind) {
    case 'Literal':
      return ofType(expr.value === null ? 'nil' : typeof expr.value === 'number' ? 'number' : typeof expr.value === 'string' ? 'string' : 'bool');
    case 'Template':
      return { type: 'string' };
    case 'List':
      return { type: 'list' };
    case 'Map':
      return { type: 'map' };
    case 'Grouping':
      return kindOfExpression(doc, expr.expression, depth + 1);
    case 'Assign':
      return kindOfExpression(doc, expr.value, depth + 1);
    case 'Unary':
      return { type: expr.operator === '!' ? 'bool' : 'number' };
    case 'Binary':
      return binaryKind(doc, expr, depth);
    case 'Variable': {
      const symbol = doc.compiled.resolution?.symbols.uses.get(expr.name);
      return symbol ? kindOfSymbol(doc, symbol, depth + 1) : UNKNOWN;
    }
    case 'Call':
      return callKind(doc, expr, depth);
    case 'This':
      return thisKind(doc, expr.loc.start);
    default:
      return UNKNOWN;
  }
}

function binaryKind(doc: SpellDocument, expr: A.BinaryExpr, depth: number): ValueKind {
  switch (expr.operator) {
    case '+': {
      const left = kindOfExpression(doc, expr.left, depth + 1).type;
      const right = kindOfExpression(doc, expr.right, depth + 1).type;
      if (left === 'string' || right === 'string') return { type: 'string' };
      return left === 'number' && right === 'number' ? { type: 'number' } : UNKNOWN;
    }
    case '-':
    case '*':
    case '/':
    case '%':
      return { type: 'number' };
    default:
      return { type: 'bool' };
  }
}

function callKind(doc: SpellDocument, expr: A.CallExpr, depth: number): ValueKind {
  const callee = expr.callee;
  if (callee.kind === 'Variable') {
    const symbol = doc.compiled.resolution?.symbols.uses.get(callee.name);
    if (symbol) return symbol.kind === 'class' && symbol.node.kind === 'Class' ? { type: 'instance', classNode: symbol.node } : UNKNOWN;
    const host = doc.world.hosts.find((h) => h.name === callee.name.name);
    return host ? ofType(host.returns) : UNKNOWN;
  }
  if (callee.kind === 'Get') return methodResult(kindOfExpression(doc, callee.object, depth + 1), callee.name.name);
  return UNKNOWN;
}

function methodResult(receiver: ValueKind, name: string): ValueKind {
  const method = BUILTIN_METHODS.find((m) => m.receiver === receiver.type && m.name === name);
  return method ? ofType(method.returns) : UNKNOWN;
}

function thisKind(doc: SpellDocument, offset: number): ValueKind {
  const classes = doc.enclosing(offset).classes;
  const inner = classes[classes.length - 1];
  return inner ? { type: 'instance', classNode: inner } : UNKNOWN;
}

export function kindOfSymbol(doc: SpellDocument, symbol: SpellSymbol, depth = 0): ValueKind {
  if (depth > MAX_DEPTH) return UNKNOWN;
  switch (symbol.kind) {
    case 'parameter':
      return symbol.owner !== null && doc.entityParametersOf(symbol.owner).has(symbol.name) ? { type: 'entity' } : UNKNOWN;
    case 'variable': {
      if (symbol.node.kind !== 'Var' || symbol.declarations.length > 1 || doc.names.isReassigned(symbol)) return UNKNOWN;
      return symbol.node.initializer ? kindOfExpression(doc, symbol.node.initializer, depth + 1) : { type: 'nil' };
    }
    case 'function':
    case 'spell':
      return { type: 'function' };
    default:
      return UNKNOWN;
  }
}

/**
 * The kind of the value before the `.` at `dot`, read from the tokens: the
 * statement being typed (`caster.`) does not parse yet, so the tree may not
 * have it. Handles a name, `this`, a string, a call of a host function or a
 * class, and a list literal.
 */
export function kindBeforeDot(doc: SpellDocument, dot: number): ValueKind {
  const tokens = doc.compiled.lexed.tokens;
  const i = lastTokenBefore(tokens, dot);
  const tok = tokens[i];
  if (tok === undefined) return UNKNOWN;
  const type = tok.tokenType.name;
  if (type === 'Identifier') {
    const symbol = doc.symbolNamed(tok.image, dot);
    return symbol ? kindOfSymbol(doc, symbol) : UNKNOWN;
  }
  if (tok.image === 'this') return thisKind(doc, dot);
  if (type === 'String' || type === 'TemplateString' || type === 'TemplateTail') return { type: 'string' };
  if (type === 'Number') return { type: 'number' };
  if (type === 'RightParen') return callBefore(doc, tokens, i);
  if (type === 'RightBracket') {
    const open = matchingOpen(tokens, i, 'LeftBracket', 'RightBracket');
    const before = tokens[open - 1];
    const isIndex = before !== undefined && ['Identifier', 'RightParen', 'RightBracket', 'String'].includes(before.tokenType.name);
    return open >= 0 && !isIndex ? { type: 'list' } : UNKNOWN;
  }
  return UNKNOWN;
}

function callBefore(doc: SpellDocument, tokens: readonly IToken[], close: number): ValueKind {
  const open = matchingOpen(tokens, close, 'LeftParen', 'RightParen');
  const callee = tokens[open - 1];
  if (open < 0 || callee?.tokenType.name !== 'Identifier') return UNKNOWN;
  if (tokens[open - 2]?.tokenType.name === 'Dot') return methodResult(kindBeforeDot(doc, tokens[open - 2]!.startOffset), callee.image);
  const symbol = doc.symbolNamed(callee.image, callee.startOffset);
  if (symbol) return symbol.kind === 'class' && symbol.node.kind === 'Class' ? { type: 'instance', classNode: symbol.node } : UNKNOWN;
  const host = doc.world.hosts.find((h) => h.name === callee.image);
  return host ? ofType(host.returns) : UNKNOWN;
}

/** Index of the last token that starts before `offset`. */
export function lastTokenBefore(tokens: readonly IToken[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (tokens[mid]!.startOffset < offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function matchingOpen(tokens: readonly IToken[], close: number, open: string, closeName: string): number {
  let depth = 0;
  for (let i = close; i >= 0 && close - i < 2000; i--) {
    const name = tokens[i]!.tokenType.name;
    if (name === closeName) depth++;
    else if (name === open && --depth === 0) return i;
  }
  return -1;
}
