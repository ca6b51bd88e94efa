/**
 * A debugger's `evaluate`: one expression, in the scope of a paused frame,
 * compiled by the same compiler and run on a VM of its own — and read-only.
 *
 * How: the expression is parsed alone and checked (no assignment of any
 * kind; calls only to the host functions that change nothing, never to the
 * program's own functions or methods, whose code could change anything and
 * belongs to another VM). The names it reads become the parameters of a
 * one-line function, `fun evaluate(a, b) { return (…); }` — `this` renamed
 * to a parameter too — which is compiled and called with the frame's values
 * (locals, then captured variables, then the program's globals). The values
 * are the program's own objects, only read; the run has its own small fuel
 * budget, so no expression can hang the adapter.
 */
import { walk } from '../../compiler/ast-walk.js';
import type { Expr } from '../../compiler/ast.js';
import { compile } from '../../compiler/compile.js';
import { parse } from '../../compiler/parse.js';
import type { NamedValue } from '../../vm/debugger.js';
import type { HostFunction } from '../../vm/host.js';
import type { Value } from '../../vm/value.js';
import { VM } from '../../vm/vm.js';
import { READ_ONLY_HOSTS } from './read-only-hosts.js';

/** What an expression may read: a paused frame's view of the program. */
export interface EvaluationScope {
  readonly locals: readonly NamedValue[];
  readonly upvalues: readonly NamedValue[];
  /** A global of the paused program, or undefined. */
  global(name: string): Value | undefined;
  /** The host table the program runs with (the world's or the CLI's). */
  readonly hosts: readonly HostFunction[];
  /** The paused cast (the world's context of it), which the expression's host calls see as theirs; null outside a world. */
  readonly cast: unknown;
}

export type Evaluation = { readonly ok: true; readonly value: Value } | { readonly ok: false; readonly message: string };

/** Instructions one evaluation may run: far more than any expression needs, and a bound on a huge list literal or template. */
const EVALUATION_FUEL = 1_000_000;
/** The function the expression is compiled into. */
const FUNCTION_NAME = 'evaluate';
/** The parameter `this` becomes (`this` cannot name a parameter; an expression reading both is refused). */
const THIS_NAME = 'this_';
/** Lox's limit on parameters: an expression reading more names than this is refused. */
const MAX_NAMES = 255;

export function evaluate(expression: string, scope: EvaluationScope): Evaluation {
  const text = expression.trim();
  if (text === '') return refused('Nothing to evaluate.');
  const expr = parseExpression(text);
  if ('message' in expr) return refused(expr.message);
  const reads = readOnlyReads(expr.node, scope);
  if ('message' in reads) return refused(reads.message);
  const values: Value[] = [];
  for (const name of reads.names) {
    const value = lookUp(name, scope);
    if (value === undefined) return refused(`Undefined variable '${name}'.`);
    values.push(value);
  }
  const source = `fun ${FUNCTION_NAME}(${reads.names.map(parameterName).join(', ')}) {\nreturn (\n${withThisRenamed(text, expr.node)}\n);\n}\n`;
  const { module, diagnostics } = compile(source, { hosts: scope.hosts, sourceName: '<evaluate>' });
  if (module === null) return refused(diagnostics.find((d) => d.severity === 'error')?.message ?? 'The expression does not compile.');
  const vm = new VM(module, { hosts: scope.hosts, fuel: EVALUATION_FUEL, tier: 'interpreter', print: () => {} });
  vm.hostCast = scope.cast; // a VM of its own: host functions read the paused cast's world from their context
  const fiber = vm.call(FUNCTION_NAME, values);
  if (fiber.state === 'done') return { ok: true, value: fiber.result };
  if (fiber.state === 'failed') return refused(fiber.error?.message ?? 'The expression failed.');
  vm.cancel(fiber);
  return refused('The expression did not finish.');
}

function refused(message: string): Evaluation {
  return { ok: false, message };
}

/**
 * The text is parsed in parentheses, on lines of their own: `{…}` is then a
 * map, not a block, and a trailing `// comment` cannot swallow the `)`.
 */
const PREFIX = '(\n';

/** The one expression the text is, or why it is not one. */
function parseExpression(text: string): { readonly node: Expr } | { readonly message: string } {
  const { ast, diagnostics } = parse(`${PREFIX}${text}\n);`);
  const notOne = { message: 'Evaluate takes one expression (a statement such as var, print or a loop is not evaluated).' };
  const error = diagnostics.find((d) => d.severity === 'error');
  if (error !== undefined) {
    // Statements (`var x = 1`) parse where an expression does not: say so, rather than "Expect expression."
    const asStatements = parse(`${text}\n;`).diagnostics.some((d) => d.severity === 'error');
    return asStatements ? { message: `${error.message} (line ${error.line - 1}, column ${error.column})` } : notOne;
  }
  const [statement, ...more] = ast.body;
  if (statement === undefined || more.length > 0 || statement.kind !== 'ExpressionStmt' || statement.expression.kind !== 'Grouping') return notOne;
  return { node: statement.expression.expression };
}

/**
 * The names an expression reads (in first-read order; `this` included), or
 * why it is refused: it assigns, or calls something that is not a host
 * function that changes nothing.
 */
function readOnlyReads(root: Expr, scope: EvaluationScope): { readonly names: readonly string[] } | { readonly message: string } {
  const names = new Set<string>();
  const callees = new Set<Expr>();
  const hostNames = new Set(scope.hosts.map((h) => h.name));
  let problem: string | null = null;
  walk([{ kind: 'ExpressionStmt', expression: root, loc: root.loc }], {
    expr(e) {
      if (problem !== null) return;
      switch (e.kind) {
        case 'Assign':
          problem = `Evaluate is read-only: it does not assign to '${e.name.name}'.`;
          return;
        case 'Set':
          problem = `Evaluate is read-only: it does not assign to the field '${e.name.name}'.`;
          return;
        case 'SetIndex':
          problem = 'Evaluate is read-only: it does not assign to an element.';
          return;
        case 'Super':
          problem = "Evaluate does not read 'super' (a method of the superclass is the program's code).";
          return;
        case 'Call':
          callees.add(e.callee);
          problem = callProblem(e.callee, scope, hostNames);
          return;
        case 'This':
          names.add('this');
          return;
        case 'Variable':
          if (!(callees.has(e) && hostNames.has(e.name.name) && lookUp(e.name.name, scope) === undefined)) names.add(e.name.name);
          return;
        default:
          return;
      }
    },
  });
  if (problem !== null) return { message: problem };
  if (names.has('this') && names.has(THIS_NAME)) return { message: `Evaluate cannot read both 'this' and '${THIS_NAME}' in one expression.` };
  if (names.size > MAX_NAMES) return { message: `The expression reads more than ${MAX_NAMES} names.` };
  return { names: [...names] };
}

/** Why a call is refused, or null for a host function that changes nothing. */
function callProblem(callee: Expr, scope: EvaluationScope, hostNames: ReadonlySet<string>): string | null {
  if (callee.kind === 'Get') return `Evaluate does not call methods ('${callee.name.name}(…)' could change a list, a map or the program's state); read fields and elements instead.`;
  if (callee.kind !== 'Variable') return "Evaluate only calls host functions by name (a call of the program's own values could change its state).";
  const name = callee.name.name;
  const isHost = hostNames.has(name) && lookUp(name, scope) === undefined;
  if (!isHost) return `Evaluate does not call the program's functions ('${name}' could change its state); it calls only host functions that change nothing, such as len() or distance().`;
  if (!READ_ONLY_HOSTS.has(name)) return `Evaluate does not call ${name}(): it has effects (on the world or the game).`;
  return null;
}

/** A name as the frame sees it: its locals first (the innermost declaration), then what its closure captured, then globals. */
function lookUp(name: string, scope: EvaluationScope): Value | undefined {
  const local = scope.locals.find((l) => l.name === name) ?? scope.upvalues.find((u) => u.name === name);
  return local !== undefined ? local.value : scope.global(name);
}

function parameterName(name: string): string {
  return name === 'this' ? THIS_NAME : name;
}

/** The expression's text with each `this` renamed to its parameter (from the end, so earlier offsets hold). */
function withThisRenamed(text: string, root: Expr): string {
  const spans: { start: number; end: number }[] = [];
  walk([{ kind: 'ExpressionStmt', expression: root, loc: root.loc }], {
    expr(e) {
      if (e.kind === 'This') spans.push({ start: e.loc.start, end: e.loc.end });
    },
  });
  let renamed = text;
  for (const { start, end } of spans.sort((a, b) => b.start - a.start)) {
    renamed = renamed.slice(0, start - PREFIX.length) + THIS_NAME + renamed.slice(end - PREFIX.length);
  }
  return renamed;
}
