import { describe, expect, it } from 'vitest';
import type { Expr, Stmt } from './ast.js';
import { formatDiagnosticClox } from './diagnostics.js';
import { lex } from './lexer.js';
import { parse } from './parse.js';
import { SpellParser } from './parser.js';

function firstExpression(source: string): Expr {
  const { ast, diagnostics } = parse(source);
  expect(diagnostics).toEqual([]);
  const stmt = ast.body[0]!;
  if (stmt.kind !== 'ExpressionStmt' && stmt.kind !== 'Print') throw new Error(`not an expression: ${stmt.kind}`);
  return stmt.expression;
}

/** A compact s-expression view of an expression tree. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'Literal':
      return JSON.stringify(e.value);
    case 'Variable':
      return e.name.name;
    case 'Binary':
    case 'Logical':
      return `(${e.operator} ${show(e.left)} ${show(e.right)})`;
    case 'Unary':
      return `(${e.operator} ${show(e.operand)})`;
    case 'Grouping':
      return `(group ${show(e.expression)})`;
    case 'Assign':
      return `(${e.operator} ${e.name.name} ${show(e.value)})`;
    case 'Call':
      return `(call ${show(e.callee)}${e.args.map((a) => ' ' + show(a)).join('')})`;
    case 'Get':
      return `(. ${show(e.object)} ${e.name.name})`;
    case 'Set':
      return `(${e.operator} (. ${show(e.object)} ${e.name.name}) ${show(e.value)})`;
    case 'Index':
      return `([] ${show(e.object)} ${show(e.index)})`;
    case 'SetIndex':
      return `(${e.operator} ([] ${show(e.object)} ${show(e.index)}) ${show(e.value)})`;
    case 'List':
      return `[${e.elements.map(show).join(' ')}]`;
    case 'This':
      return 'this';
    case 'Super':
      return `(super ${e.method.name})`;
    case 'Map':
      return `{${e.entries.map((en) => `${show(en.key)}: ${show(en.value)}`).join(' ')}}`;
    case 'Template':
      return `(template ${e.strings.map((t, i) => JSON.stringify(t) + (i < e.expressions.length ? ' ' + show(e.expressions[i]!) : '')).join(' ')})`;
    case 'ErrorExpr':
      return '<error>';
  }
}

const kinds = (body: readonly Stmt[]) => body.map((s) => s.kind);

describe('parser: grammar', () => {
  it("passes chevrotain's grammar validations (skipped in production for start-up time)", () => {
    expect(() => new SpellParser({ validate: true })).not.toThrow();
  });

  it("recovers from errors the same with the follow sets built on first need as with chevrotain's eager ones", () => {
    const followSetsOf = (p: SpellParser) => (p as unknown as { resyncFollows: Record<string, unknown> }).resyncFollows;
    const eager = new SpellParser({ eagerFollowSets: true });
    expect(Object.keys(followSetsOf(eager)).length).toBeGreaterThan(0);
    expect(followSetsOf(new SpellParser())).toEqual(followSetsOf(eager));

    // Both parsers on programs whose recovery re-syncs to a follow token, not only at statement level.
    const outcome = (p: SpellParser, source: string) => {
      p.input = lex(source).tokens;
      p.program();
      return { body: p.topLevel, errors: p.errors.map((e) => [e.message, e.token.image]), problems: p.problems.map((x) => x.message) };
    };
    const lazy = new SpellParser();
    for (const source of ['print (1 + ;\nprint 2;', 'f(1, , 2);\nvar x = [1 2, 3];', 'class A { m( { } }\nprint "after";', 'var m = {"a" 1, "b": };']) {
      const expected = outcome(eager, source);
      expect(expected.errors.length).toBeGreaterThan(0);
      expect(outcome(lazy, source)).toEqual(expected);
    }
  });
});

describe('parser: expressions', () => {
  it('follows the book precedence table, left-associative', () => {
    expect(show(firstExpression('1 + 2 * 3 - 4 / 5 % 6;'))).toBe('(- (+ 1 (* 2 3)) (% (/ 4 5) 6))');
    expect(show(firstExpression('a or b and c == d < e + f;'))).toBe('(or a (and b (== c (< d (+ e f)))))');
    expect(show(firstExpression('1 - 2 - 3;'))).toBe('(- (- 1 2) 3)');
    expect(show(firstExpression('!-!x == -y;'))).toBe('(== (! (- (! x))) (- y))');
    expect(show(firstExpression('(1 + 2) * 3;'))).toBe('(* (group (+ 1 2)) 3)');
  });

  it('parses assignment right-associatively, including compound forms on variables, properties and indexes', () => {
    expect(show(firstExpression('a = b = c;'))).toBe('(= a (= b c))');
    expect(show(firstExpression('a.b += 1;'))).toBe('(+= (. a b) 1)');
    expect(show(firstExpression('a[i] %= 2;'))).toBe('(%= ([] a i) 2)');
    expect(show(firstExpression('x -= y *= 2;'))).toBe('(-= x (*= y 2))');
  });

  it('parses calls, properties, indexes, lists, this and super', () => {
    expect(show(firstExpression('f(1, g(2))(3).x[0].y(z);'))).toBe('(call (. ([] (. (call (call f 1 (call g 2)) 3) x) 0) y) z)');
    expect(show(firstExpression('[1, [2], []];'))).toBe('[1 [2] []]');
    expect(show(firstExpression('print "s" + nil;'))).toBe('(+ "s" null)');
  });

  it('parses map literals in expression position; a statement starting with { stays a block', () => {
    expect(show(firstExpression('print {"fire": 3, 2: [1], true: {}};'))).toBe('{"fire": 3 2: [1] true: {}}');
    expect(show(firstExpression('print {};'))).toBe('{}');
    expect(show(firstExpression('m = {"a": 1}["a"];'))).toBe('(= m ([] {"a": 1} "a"))');
    expect(kinds(parse('{ print 1; } {}').ast.body)).toEqual(['Block', 'Block']);
  });

  it('parses template strings with nested expressions, braces and templates', () => {
    expect(show(firstExpression('print `hi`;'))).toBe('"hi"');
    expect(show(firstExpression('print `a${x}b${y + 1}c`;'))).toBe('(template "a" x "b" (+ y 1) "c")');
    expect(show(firstExpression('print `${ {"k": `in${v}`}["k"] }`;'))).toBe('(template "" ([] {"k": (template "in" v "")} "k") "")');
    expect(show(firstExpression('print `$ {x} $x {}`;'))).toBe('"$ {x} $x {}"');
  });

  it('reports unterminated templates and a missing key colon', () => {
    expect(parse('print `abc').diagnostics.map((d) => d.message)).toContain('Unterminated template string.');
    expect(parse('print `a${1} b').diagnostics.map((d) => d.message)).toContain('Unterminated template string.');
    expect(parse('print {"a" 1};').diagnostics.map((d) => d.message)).toContain("Expect ':' after map key.");
  });

  it('gives every node a span with end positions', () => {
    const e = firstExpression('foo(1,\n  2);');
    expect(e.loc).toMatchObject({ line: 1, column: 1, endLine: 2, endColumn: 5, start: 0, end: 11 });
  });
});

describe('parser: statements', () => {
  it('parses every declaration and statement form', () => {
    const { ast, diagnostics } = parse(`
      var a = 1; fun f(x) { return x; } class A < B { init() {} m() { return; } }
      spell zap(target) { print target; }
      if (a) print 1; else { print 2; }
      while (false) a = a + 1;
      for (var i = 0; i < 2; i = i + 1) print i;
      for (;;) {}
      for (x in [1]) print x;
      for (var y in [1]) print y;
    `);
    expect(diagnostics).toEqual([]);
    expect(kinds(ast.body)).toEqual(['Var', 'Function', 'Class', 'Function', 'If', 'While', 'For', 'For', 'ForIn', 'ForIn']);
    const spell = ast.body[3]!;
    expect(spell).toMatchObject({ kind: 'Function', functionKind: 'spell', name: { name: 'zap' } });
    const klass = ast.body[2]!;
    expect(klass.kind === 'Class' && klass.methods.map((m) => m.functionKind)).toEqual(['initializer', 'method']);
  });

  it('binds a dangling else to the nearest if and nests else-if chains', () => {
    const { ast } = parse('if (a) if (b) print 1; else print 2; if (c) print 3; else if (d) print 4; else print 5;');
    const [outer, chain] = ast.body;
    expect(outer).toMatchObject({ kind: 'If', elseBranch: null, thenBranch: { kind: 'If', elseBranch: { kind: 'Print' } } });
    expect(chain).toMatchObject({ kind: 'If', elseBranch: { kind: 'If', elseBranch: { kind: 'Print' } } });
  });

  it('treats `in` and `spell` as ordinary names outside their constructs', () => {
    const { ast, diagnostics } = parse('var in = 1; var spell = 2; print in + spell; spell(1); fun f(in, spell) { return in; } for (in in list) print in;');
    expect(diagnostics).toEqual([]);
    expect(kinds(ast.body)).toEqual(['Var', 'Var', 'Print', 'ExpressionStmt', 'Function', 'ForIn']);
  });
});

describe('parser: errors and recovery', () => {
  const errors = (source: string) => parse(source).diagnostics.map(formatDiagnosticClox);

  it('reports three syntax errors in three statements, with lines and columns', () => {
    const { diagnostics } = parse('var a = ;\nprint 1 +;\nvar = 3;\nprint "ok";');
    expect(diagnostics.map((d) => [d.message, d.line, d.column, d.token])).toEqual([
      ['Expect expression.', 1, 9, ';'],
      ['Expect expression.', 2, 10, ';'],
      ['Expect variable name.', 3, 5, '='],
    ]);
  });

  it('keeps parsing after errors: later statements are in the tree', () => {
    const { ast } = parse('var a = ;\nprint 1 +;\nprint "after";');
    expect(ast.body.at(-1)).toMatchObject({ kind: 'Print', expression: { kind: 'Literal', value: 'after' } });
  });

  it("uses the book's messages", () => {
    expect(errors('print 1')).toEqual(["[line 1] Error at end: Expect ';' after value."]);
    expect(errors('1 + 2')).toEqual(["[line 1] Error at end: Expect ';' after expression."]);
    expect(errors('if 1) print 1;')).toEqual(["[line 1] Error at '1': Expect '(' after 'if'."]);
    expect(errors('while (1 print 1;')).toEqual(["[line 1] Error at 'print': Expect ')' after condition."]);
    expect(errors('f(1 2);')).toEqual(["[line 1] Error at '2': Expect ')' after arguments."]);
    expect(errors('fun (a) {}')).toEqual(["[line 1] Error at '(': Expect function name."]);
    expect(errors('class {}')).toEqual(["[line 1] Error at '{': Expect class name."]);
    expect(errors('a.;')).toEqual(["[line 1] Error at ';': Expect property name after '.'."]);
    expect(errors('{ print 1;')).toEqual(["[line 1] Error at end: Expect '}' after block."]);
    expect(errors('a + b = c;')).toEqual(["[line 1] Error at '=': Invalid assignment target."]);
    expect(errors('print super;')).toEqual(["[line 1] Error at ';': Expect '.' after 'super'."]);
    expect(errors('for (x in list print x;')).toEqual(["[line 1] Error at 'print': Expect ')' after for clauses."]);
    expect(errors(') print 1;')).toEqual(["[line 1] Error at ')': Expect expression."]);
  });

  it('reports one error per mistake, as clox panic mode does', () => {
    expect(errors('var false = 1;')).toEqual(["[line 1] Error at 'false': Expect variable name."]);
    expect(errors('print "unterminated')).toEqual(['[line 1] Error: Unterminated string.']);
    expect(errors('print @a + @b;')).toEqual(['[line 1] Error: Unexpected character.']);
  });

  it('reports too many parameters and arguments at the 256th', () => {
    const names = Array.from({ length: 256 }, (_, i) => `p${i}`).join(', ');
    expect(errors(`fun f(${names}) {}`)).toEqual(["[line 1] Error at 'p255': Can't have more than 255 parameters."]);
    const args = Array.from({ length: 256 }, () => 'a').join(', ');
    expect(errors(`f(${args});`)).toEqual(["[line 1] Error at 'a': Can't have more than 255 arguments."]);
  });

  it('never crashes on truncated input and always returns a program', () => {
    const source = 'class A < B { init(x) { this.x = x; } } for (var i = 0; i < 10; i = i + 1) { print [i, -i][0] += 1; }';
    for (let cut = 0; cut <= source.length; cut++) {
      const { ast, diagnostics } = parse(source.slice(0, cut));
      expect(ast.kind).toBe('Program');
      for (const d of diagnostics) expect(d.line).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('a missing semicolon', () => {
  it('is shown right after the token that lacks it, and named in clox format at the token found', () => {
    const { diagnostics } = parse('var a = 1\n\nprint a;');
    expect(diagnostics).toEqual([
      { severity: 'error', message: "Expect ';' after variable declaration.", line: 1, column: 10, endLine: 1, endColumn: 11, token: 'print', cloxLine: 3 },
    ]);
    expect(diagnostics.map(formatDiagnosticClox)).toEqual(["[line 3] Error at 'print': Expect ';' after variable declaration."]);
  });

  it('at the end of the file points after the last token, and clox says "at end" on the last line', () => {
    const { diagnostics } = parse('fun f() {\n  return 1\n}');
    expect(diagnostics[0]).toMatchObject({ line: 2, column: 11, token: '}', cloxLine: 3 });
    const atEnd = parse('print 1\n\n');
    expect(atEnd.diagnostics[0]).toMatchObject({ line: 1, column: 8, token: null, cloxLine: 3 });
    expect(atEnd.diagnostics.map(formatDiagnosticClox)).toEqual(["[line 3] Error at end: Expect ';' after value."]);
  });

  it('stays at the token found when that is on the same line', () => {
    expect(parse('print 1 print 2;').diagnostics[0]).toMatchObject({ line: 1, column: 9, token: 'print' });
    expect(parse('print 1 print 2;').diagnostics[0]!.cloxLine).toBeUndefined();
  });
});
