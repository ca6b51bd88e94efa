/**
 * A warning for `"Zap did " + dmg` where the compiler can tell one side is a
 * string and the other a number: Lox's `+` never converts, so it can only
 * end in "Operands must be two numbers or two strings." at run time. The
 * warning covers the whole `+` chain and suggests the template string that
 * says what was meant (`` `Zap did ${dmg}` ``).
 *
 * What the compiler can tell (anything else is "unknown", never warned):
 * literals and template strings; `-x`, `a - b`, `a * b`, `a / b`, `a % b`
 * (numbers, or an error); `a + b` with one side known (`1 + x` is a number
 * or an error); a host function's declared return type; and a variable
 * declared once in the whole program, by `var` with such an initializer,
 * and never assigned.
 *
 * A warning, not an error: in Lox the program still compiles and fails only
 * when that line runs (the conformance suite expects exactly that).
 */

import type { HostFunctionSpec } from '../vm/host.js';
import type * as A from './ast.js';
import { walk } from './ast-walk.js';
import type { Diagnostic } from './diagnostics.js';
import { diagnosticAt } from './parse-errors.js';

type Kind = 'number' | 'string' | null;

/** How far one variable's kind is followed through others (`var b = a; var c = b; …`). */
const MAX_VARIABLE_DEPTH = 32;
/** A suggested template longer than this is left out of the message. */
const MAX_SUGGESTION = 80;

export function checkStringNumberAdditions(program: A.Program, source: string, hosts: readonly HostFunctionSpec[]): Diagnostic[] {
  const kinds = new KindOracle(program, hosts);
  const diagnostics: Diagnostic[] = [];
  const inChain = new Set<A.Expr>();
  walk(program.body, {
    expr: (e) => {
      if (!isPlus(e)) return;
      if (isPlus(e.left)) inChain.add(e.left);
      if (inChain.has(e)) return;
      const warning = mixedChainWarning(e, kinds, source);
      if (warning) diagnostics.push(warning);
    },
  });
  return diagnostics;
}

function isPlus(e: A.Expr): e is A.BinaryExpr {
  return e.kind === 'Binary' && e.operator === '+';
}

/** `o1 + o2 + … + on`, read down the left spine (no recursion). */
function chainOperands(top: A.BinaryExpr): { operands: A.Expr[]; operators: A.BinaryExpr[] } {
  const operators: A.BinaryExpr[] = [];
  let e: A.Expr = top;
  while (isPlus(e)) {
    operators.push(e);
    e = e.left;
  }
  operators.reverse();
  return { operands: [e, ...operators.map((op) => op.right)], operators };
}

function mixedChainWarning(top: A.BinaryExpr, kinds: KindOracle, source: string): Diagnostic | null {
  const { operands } = chainOperands(top);
  const operandKinds = operands.map((o) => kinds.of(o));
  let sum = operandKinds[0]!;
  for (let i = 1; i < operands.length; i++) {
    const next = operandKinds[i]!;
    if (sum !== null && next !== null && sum !== next) {
      const suggestion = templateFor(operands, operandKinds, source);
      const advice = suggestion === null ? 'write a template string (`…${x}…`) or convert with str().' : `write a template string: ${suggestion}`;
      const message = `Adding a string and a number is an error when it runs ("Operands must be two numbers or two strings."); ${advice}`;
      return diagnosticAt('warning', message, top.loc, '+');
    }
    sum = sum ?? next;
  }
  return null;
}

/**
 * The chain as one template string: the numbers before its first string are
 * added first (`1 + 2 + "x"` → `` `${1 + 2}x` ``), then each string literal
 * is its text and anything else a substitution. Null when a string holds
 * what a template cannot (`` ` `` or `${`) or the result is too long to show.
 */
function templateFor(operands: readonly A.Expr[], operandKinds: readonly Kind[], source: string): string | null {
  const firstString = operandKinds.indexOf('string');
  let text = '';
  if (firstString > 0) text += '${' + source.slice(operands[0]!.loc.start, operands[firstString - 1]!.loc.end) + '}';
  for (const operand of operands.slice(Math.max(firstString, 0))) {
    if (operand.kind === 'Literal' && typeof operand.value === 'string') {
      if (operand.value.includes('`') || operand.value.includes('${')) return null;
      text += operand.value;
    } else {
      text += '${' + source.slice(operand.loc.start, operand.loc.end) + '}';
    }
  }
  const template = '`' + text + '`';
  return template.length > MAX_SUGGESTION || template.includes('\n') ? null : template;
}

/** What the compiler can tell about an expression's value. */
class KindOracle {
  /** Names declared exactly once, by `var`, and never assigned: their initializers. */
  private readonly constants = new Map<string, A.Expr>();
  /** Host functions no declaration in the program shadows. */
  private readonly hosts = new Map<string, HostFunctionSpec>();

  constructor(program: A.Program, hosts: readonly HostFunctionSpec[]) {
    const declarations = new Map<string, number>();
    const initializers = new Map<string, A.Expr>();
    const assigned = new Set<string>();
    const declare = (name: string) => declarations.set(name, (declarations.get(name) ?? 0) + 1);
    walk(program.body, {
      stmt: (s) => {
        if (s.kind === 'Var') {
          declare(s.name.name);
          if (s.initializer !== null) initializers.set(s.name.name, s.initializer);
        } else if (s.kind === 'Function') {
          declare(s.name.name);
          for (const p of s.params) declare(p.name);
        } else if (s.kind === 'Class') declare(s.name.name);
        else if (s.kind === 'ForIn') declare(s.variable.name);
      },
      expr: (e) => {
        if (e.kind === 'Assign') assigned.add(e.name.name);
      },
    });
    for (const [name, init] of initializers) {
      if (declarations.get(name) === 1 && !assigned.has(name)) this.constants.set(name, init);
    }
    for (const spec of hosts) if (!declarations.has(spec.name)) this.hosts.set(spec.name, spec);
  }

  of(e: A.Expr, depth = 0): Kind {
    switch (e.kind) {
      case 'Literal':
        return typeof e.value === 'number' ? 'number' : typeof e.value === 'string' ? 'string' : null;
      case 'Template':
        return 'string';
      case 'Grouping':
        return this.of(e.expression, depth);
      case 'Unary':
        return e.operator === '-' ? 'number' : null;
      case 'Binary':
        if (e.operator === '+') return this.sumOf(e, depth);
        return e.operator === '-' || e.operator === '*' || e.operator === '/' || e.operator === '%' ? 'number' : null;
      case 'Variable': {
        const init = this.constants.get(e.name.name);
        return init === undefined || depth >= MAX_VARIABLE_DEPTH ? null : this.of(init, depth + 1);
      }
      case 'Call': {
        if (e.callee.kind !== 'Variable') return null;
        const returns = this.hosts.get(e.callee.name.name)?.returns;
        return returns === 'number' || returns === 'string' ? returns : null;
      }
      default:
        return null;
    }
  }

  /** `a + b + …`: the kind of its first known operand; null when they disagree (that chain is warned about itself). */
  private sumOf(top: A.BinaryExpr, depth: number): Kind {
    let sum: Kind = null;
    for (const operand of chainOperands(top).operands) {
      const kind = this.of(operand, depth);
      if (sum !== null && kind !== null && kind !== sum) return null;
      sum = sum ?? kind;
    }
    return sum;
  }
}
