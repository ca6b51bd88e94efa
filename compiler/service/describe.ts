/**
 * How a declared name reads in hover and completion details: its
 * declaration as code (`var dmg = 10;`, `spell fireball(caster, target)`)
 * and what kind of name it is.
 */
import type * as A from '../ast.js';
import type { SpellSymbol } from '../symbols.js';
import type { SpellDocument } from './document.js';

export interface SymbolDescription {
  /** One line of code: the declaration. */
  readonly code: string;
  /** `local variable`, `parameter of spell fireball`, `class` … */
  readonly kindText: string;
}

const MAX_CODE = 160;

export function describeSymbol(doc: SpellDocument, symbol: SpellSymbol): SymbolDescription {
  const node = symbol.node;
  switch (symbol.kind) {
    case 'parameter':
      return { code: node.kind === 'Function' ? functionHeader(node) : symbol.name, kindText: `parameter of ${node.kind === 'Function' ? `${node.functionKind === 'spell' ? 'spell' : 'function'} ${node.name.name}` : 'a function'}` };
    case 'function':
    case 'spell':
      return { code: node.kind === 'Function' ? functionHeader(node) : symbol.name, kindText: symbol.kind === 'spell' ? 'spell' : symbol.global ? 'function' : 'local function' };
    case 'class':
      return { code: node.kind === 'Class' ? classHeader(node) : `class ${symbol.name}`, kindText: 'class' };
    case 'loop-variable':
      return { code: node.kind === 'ForIn' ? `for (${symbol.name} in ${oneLine(doc.source.slice(node.iterable.loc.start, node.iterable.loc.end))})` : symbol.name, kindText: 'loop variable' };
    default:
      return { code: oneLine(doc.source.slice(node.loc.start, node.loc.end)), kindText: symbol.global ? 'global variable' : 'local variable' };
  }
}

export function functionHeader(fn: A.FunctionStmt): string {
  const keyword = fn.functionKind === 'spell' ? 'spell ' : fn.functionKind === 'function' ? 'fun ' : '';
  return `${keyword}${fn.name.name}(${fn.params.map((p) => p.name).join(', ')})`;
}

function classHeader(c: A.ClassStmt): string {
  return `class ${c.name.name}${c.superclass ? ` < ${c.superclass.name.name}` : ''}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_CODE ? flat.slice(0, MAX_CODE - 1) + '…' : flat;
}
