/**
 * A fast-check arbitrary of Cantrip programs built from the grammar: globals,
 * arithmetic, strings, lists, maps (literals, keys of every kind, for-in),
 * template strings, loops (infinite ones too), recursion, closures, classes
 * with inheritance, for-in, host calls (every core builtin, the math library
 * among them, with the arities of its table), string/list/map methods —
 * with JS's special names (`__proto__`, `constructor` …) as fields, methods,
 * map keys and variables.
 *
 * The tree is generated with fc.letrec (so counterexamples shrink) and then
 * rendered with the context the grammar needs: `this` only inside methods,
 * `super` only in subclasses, `return` only in functions, no variable
 * declared twice in one scope or read in its own initializer. Most programs
 * compile; the rest exercise the compiler's error paths.
 */

import fc from 'fast-check';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { hostArity } from '../../vm/host.js';
import { LIST_METHOD_TABLE } from '../../vm/list-methods.js';
import { MAP_METHOD_TABLE } from '../../vm/map-methods.js';
import { STRING_METHOD_TABLE } from '../../vm/string-methods.js';

export type Expr =
  | { k: 'lit'; v: string }
  | { k: 'var'; name: string }
  | { k: 'list'; items: Expr[] }
  | { k: 'map'; entries: [Expr, Expr][] }
  | { k: 'template'; parts: Expr[] }
  | { k: 'index'; obj: Expr; idx: Expr }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'un'; op: string; e: Expr }
  | { k: 'call'; callee: string; args: Expr[] }
  | { k: 'host'; name: string; args: Expr[] }
  | { k: 'get'; obj: Expr; name: string }
  | { k: 'invoke'; obj: Expr; name: string; args: Expr[] }
  | { k: 'assign'; name: string; op: string; value: Expr }
  | { k: 'set'; obj: Expr; name: string; value: Expr }
  | { k: 'setIndex'; obj: Expr; idx: Expr; value: Expr }
  | { k: 'this' }
  | { k: 'super'; name: string };

export type Stmt =
  | { k: 'print'; e: Expr }
  | { k: 'var'; name: string; e: Expr }
  | { k: 'expr'; e: Expr }
  | { k: 'block'; body: Stmt[] }
  | { k: 'if'; c: Expr; t: Stmt; f: Stmt | null }
  | { k: 'while'; c: Expr; body: Stmt }
  | { k: 'for'; n: Expr; body: Stmt }
  | { k: 'forin'; e: Expr; body: Stmt }
  | { k: 'fun'; name: string; params: number; body: Stmt[] }
  | { k: 'class'; name: string; sup: string | null; methods: { name: string; params: number; body: Stmt[] }[] }
  | { k: 'return'; e: Expr | null };

export interface Program {
  readonly statements: Stmt[];
  /** Spells (top level only), whose bodies see `self` and `other`. */
  readonly spells: { name: string; body: Stmt[] }[];
}

/** Global variables every program declares first, so most reads find something. */
const GLOBALS = ['a', 'b', 's', 'l', 'n', 'm'];
/** Names blocks declare locally (shadowing globals sometimes). */
const LOCALS = ['p', 'q', 'a', 'l'];
const FUNCTIONS = ['f', 'g', 'h'];
const CLASSES = ['C', 'D'];
const PARAMS = ['x', 'y', 'z'];
/** Field and method names, JS's special names among them. */
export const MEMBER_NAMES = [
  'x', 'hp', 'next', 'init', 'm', 'append', 'remove', 'health', 'alive', 'id',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__',
  'has', 'get', 'keys', 'values', 'upper', 'split', 'slice', 'join', 'sort', 'contains', 'indexOf', 'insert',
];
const LITERALS = [
  '0', '1', '2', '3', '10', '0.5', '2.5', '1000000', '1e308'.replace('e308', '0'.repeat(20)),
  'true', 'false', 'nil', '""', '"a"', '"hello"', '"__proto__"', '"constructor"', '"Troll"', '"Wizard"', '"speed"', '"armor"',
];
const BINARY = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', 'and', 'or'];
const COMPOUND = ['=', '=', '=', '+=', '-=', '*=', '/=', '%='];

/** Every core builtin (the math library among them) with each arity its table accepts; `world` ones only compile against the game API. */
const CORE_HOSTS: readonly [string, number][] = CORE_HOST_FUNCTIONS.flatMap((spec) => arities(spec.name, hostArity(spec)));
/** The built-in methods of strings, lists and maps, each with every arity it accepts. */
const STRING_METHODS = [...STRING_METHOD_TABLE.values()].flatMap((row) => arities(row.name, { min: row.minArity, max: row.maxArity }));
const LIST_METHODS = [...LIST_METHOD_TABLE.values()].flatMap((row) => arities(row.name, { min: row.minArity, max: row.maxArity }));
const MAP_METHODS = [...MAP_METHOD_TABLE.values()].flatMap((row) => arities(row.name, { min: row.minArity, max: row.maxArity }));

function arities(name: string, { min, max }: { min: number; max: number }): [string, number][] {
  return Array.from({ length: max - min + 1 }, (_, i): [string, number] => [name, min + i]);
}
const WORLD_HOSTS: readonly [string, number][] = [
  ['damage', 2], ['heal', 2], ['spawn', 3], ['despawn', 1], ['move', 3], ['setVelocity', 3], ['nearby', 2],
  ['nearest', 2], ['nearest', 3], ['within', 3], ['distance', 2], ['sound', 1], ['particles', 4], ['say', 2],
  ['buff', 4], ['random', 0], ['now', 0], ['wait', 1],
];

export interface ProgramOptions {
  /** Include the game host API (damage, nearby, wait …); programs then need WORLD_HOST_FUNCTIONS. */
  readonly world: boolean;
}

export function programArbitrary(options: ProgramOptions): fc.Arbitrary<Program> {
  const hosts = options.world ? [...CORE_HOSTS, ...WORLD_HOSTS] : CORE_HOSTS;
  const names = [...GLOBALS, ...LOCALS, ...FUNCTIONS, ...CLASSES, ...PARAMS, 'it', ...(options.world ? ['self', 'other'] : [])];
  const tree = fc.letrec<{ expr: Expr; num: Expr; text: Expr; stmt: Stmt; block: Stmt[] }>((tie) => {
    const expr = tie('expr');
    const num = tie('num');
    const text = tie('text');
    const stmt = tie('stmt');
    const args = fc.array(expr, { maxLength: 3 });
    const numVar = fc.constantFrom('a', 'i', 'x', 'p').map((name): Expr => ({ k: 'var', name }));
    return {
      // Well-typed numbers and strings, so many programs run far before a type error ends them.
      num: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: fc.constantFrom('0', '1', '2', '3', '7', '0.5', '100').map((v): Expr => ({ k: 'lit', v })), weight: 4 },
        { arbitrary: numVar, weight: 3 },
        { arbitrary: fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom('+', '-', '*', '/', '%'), l: num, r: num }), weight: 3 },
        { arbitrary: fc.constant<Expr>({ k: 'host', name: 'len', args: [{ k: 'var', name: 'l' }] }), weight: 1 },
        { arbitrary: fc.tuple(fc.constantFrom('floor', 'abs', 'sqrt'), num).map(([name, n]): Expr => ({ k: 'host', name, args: [n] })), weight: 1 },
        { arbitrary: fc.record({ k: fc.constant('index' as const), obj: fc.constant<Expr>({ k: 'var', name: 'l' }), idx: num }), weight: 1 },
      ),
      text: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: fc.constantFrom('"a"', '""', '"hello"', '"__proto__"').map((v): Expr => ({ k: 'lit', v })), weight: 3 },
        { arbitrary: fc.array(expr, { maxLength: 2 }).map((parts): Expr => ({ k: 'template', parts })), weight: 1 },
        { arbitrary: fc.constant<Expr>({ k: 'var', name: 's' }), weight: 2 },
        { arbitrary: fc.record({ k: fc.constant('bin' as const), op: fc.constant('+'), l: text, r: text }), weight: 2 },
        { arbitrary: expr.map((e): Expr => ({ k: 'host', name: 'str', args: [e] })), weight: 1 },
      ),
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: num, weight: 8 },
        { arbitrary: text, weight: 3 },
        {
          arbitrary: fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom('<', '<=', '>', '>=', '==', '!='), l: num, r: num }),
          weight: 3,
        },
        { arbitrary: fc.constantFrom(...LITERALS).map((v): Expr => ({ k: 'lit', v })), weight: 6 },
        { arbitrary: fc.constantFrom(...names).map((name): Expr => ({ k: 'var', name })), weight: 6 },
        { arbitrary: fc.array(expr, { maxLength: 4 }).map((items): Expr => ({ k: 'list', items })), weight: 2 },
        // Map literals: keys of every kind (numbers, strings, JS's special names, nil and lists are errors at run time).
        { arbitrary: fc.array(fc.tuple(expr, expr), { maxLength: 3 }).map((entries): Expr => ({ k: 'map', entries })), weight: 2 },
        { arbitrary: fc.array(expr, { maxLength: 3 }).map((parts): Expr => ({ k: 'template', parts })), weight: 2 },
        // Typed method calls on the values that have them, so most of them run.
        {
          arbitrary: fc
            .tuple(fc.constantFrom(...STRING_METHODS), text, fc.array(fc.oneof(text, num), { minLength: 2, maxLength: 2 }))
            .map(([[name, arity], obj, all]): Expr => ({ k: 'invoke', obj, name, args: all.slice(0, arity) })),
          weight: 2,
        },
        {
          arbitrary: fc
            .tuple(fc.constantFrom(...LIST_METHODS), fc.array(fc.oneof(num, expr), { minLength: 2, maxLength: 2 }))
            .map(([[name, arity], all]): Expr => ({ k: 'invoke', obj: { k: 'var', name: 'l' }, name, args: all.slice(0, arity) })),
          weight: 2,
        },
        {
          arbitrary: fc
            .tuple(fc.constantFrom(...MAP_METHODS), fc.array(fc.oneof(text, num, expr), { minLength: 2, maxLength: 2 }))
            .map(([[name, arity], all]): Expr => ({ k: 'invoke', obj: { k: 'var', name: 'm' }, name, args: all.slice(0, arity) })),
          weight: 2,
        },
        { arbitrary: fc.record({ k: fc.constant('index' as const), obj: fc.constant<Expr>({ k: 'var', name: 'm' }), idx: fc.oneof(text, num) }), weight: 1 },
        { arbitrary: fc.record({ k: fc.constant('index' as const), obj: expr, idx: expr }), weight: 1 },
        { arbitrary: fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom(...BINARY), l: expr, r: expr }), weight: 4 },
        { arbitrary: fc.record({ k: fc.constant('un' as const), op: fc.constantFrom('-', '!'), e: expr }), weight: 1 },
        { arbitrary: fc.record({ k: fc.constant('call' as const), callee: fc.constantFrom(...FUNCTIONS, ...CLASSES, 'a', 'l'), args }), weight: 3 },
        {
          arbitrary: fc
            .tuple(fc.constantFrom(...hosts), fc.array(expr, { minLength: 4, maxLength: 4 }))
            .map(([[name, arity], all]): Expr => ({ k: 'host', name, args: all.slice(0, arity) })),
          weight: 3,
        },
        { arbitrary: fc.record({ k: fc.constant('get' as const), obj: expr, name: fc.constantFrom(...MEMBER_NAMES) }), weight: 2 },
        { arbitrary: fc.record({ k: fc.constant('invoke' as const), obj: expr, name: fc.constantFrom(...MEMBER_NAMES), args }), weight: 2 },
        {
          arbitrary: fc.record({ k: fc.constant('assign' as const), name: fc.constantFrom(...GLOBALS, ...LOCALS, 'x'), op: fc.constantFrom(...COMPOUND), value: expr }),
          weight: 2,
        },
        { arbitrary: fc.record({ k: fc.constant('set' as const), obj: expr, name: fc.constantFrom(...MEMBER_NAMES), value: expr }), weight: 2 },
        { arbitrary: fc.record({ k: fc.constant('setIndex' as const), obj: expr, idx: expr, value: expr }), weight: 1 },
        { arbitrary: fc.constant<Expr>({ k: 'this' }), weight: 1 },
        { arbitrary: fc.constantFrom(...MEMBER_NAMES).map((name): Expr => ({ k: 'super', name })), weight: 1 },
      ),
      stmt: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: expr.map((e): Stmt => ({ k: 'print', e })), weight: 4 },
        // Typed updates: counters, growing strings and lists (the heap budget's favourite food).
        { arbitrary: fc.record({ k: fc.constant('assign' as const), name: fc.constantFrom('a', 'p'), op: fc.constantFrom('+=', '-=', '*=', '='), value: num }).map((e): Stmt => ({ k: 'expr', e })), weight: 3 },
        { arbitrary: text.map((t): Stmt => ({ k: 'expr', e: { k: 'assign', name: 's', op: '+=', value: t } })), weight: 2 },
        { arbitrary: expr.map((e): Stmt => ({ k: 'expr', e: { k: 'invoke', obj: { k: 'var', name: 'l' }, name: 'append', args: [e] } })), weight: 2 },
        // Maps growing by new keys (and overwriting old ones).
        {
          arbitrary: fc.tuple(fc.oneof(num, text), expr).map(([idx, value]): Stmt => ({ k: 'expr', e: { k: 'setIndex', obj: { k: 'var', name: 'm' }, idx, value } })),
          weight: 2,
        },
        { arbitrary: fc.record({ k: fc.constant('var' as const), name: fc.constantFrom(...LOCALS), e: expr }), weight: 3 },
        { arbitrary: expr.map((e): Stmt => ({ k: 'expr', e })), weight: 4 },
        { arbitrary: tie('block').map((body): Stmt => ({ k: 'block', body })), weight: 1 },
        { arbitrary: fc.record({ k: fc.constant('if' as const), c: expr, t: stmt, f: fc.option(stmt, { nil: null }) }), weight: 2 },
        {
          arbitrary: fc.record({
            k: fc.constant('while' as const),
            c: fc.oneof(expr, fc.constant<Expr>({ k: 'lit', v: 'true' }), fc.record({ k: fc.constant('bin' as const), op: fc.constantFrom('<', '>'), l: num, r: num })),
            body: stmt,
          }),
          weight: 2,
        },
        { arbitrary: fc.record({ k: fc.constant('for' as const), n: fc.oneof(num, expr), body: stmt }), weight: 2 },
        {
          arbitrary: fc.record({ k: fc.constant('forin' as const), e: fc.oneof(fc.constant<Expr>({ k: 'var', name: 'l' }), fc.constant<Expr>({ k: 'var', name: 'm' }), expr), body: stmt }),
          weight: 2,
        },
        {
          arbitrary: fc.record({ k: fc.constant('fun' as const), name: fc.constantFrom(...FUNCTIONS), params: fc.nat({ max: 3 }), body: tie('block') }),
          weight: 2,
        },
        {
          arbitrary: fc.record({
            k: fc.constant('class' as const),
            name: fc.constantFrom(...CLASSES),
            sup: fc.option(fc.constantFrom(...CLASSES), { nil: null }),
            methods: fc.array(fc.record({ name: fc.constantFrom(...MEMBER_NAMES), params: fc.nat({ max: 2 }), body: tie('block') }), { maxLength: 3 }),
          }),
          weight: 1,
        },
        { arbitrary: fc.option(expr, { nil: null }).map((e): Stmt => ({ k: 'return', e })), weight: 2 },
      ),
      block: fc.array(stmt, { maxLength: 4 }),
    };
  });
  // The top level stays short (a failing script ends the run); spells are cast one by one, so each runs to its own end.
  const statements = fc.array(tree.stmt, { minLength: 1, maxLength: 4 });
  const spells = fc.array(tree.block, { minLength: 1, maxLength: 4 }).map((list) => list.map((body, i) => ({ name: `cast${i}`, body })));
  return fc.record({ statements, spells });
}

// ---------------------------------------------------------------- rendering

interface Context {
  /** Names declared in each enclosing local scope, innermost last; empty at top level. */
  readonly scopes: Set<string>[];
  readonly inFunction: boolean;
  readonly inInitializer: boolean;
  readonly inMethod: boolean;
  readonly inSubclass: boolean;
  /** A local being declared: reading it in its own initializer is a compile error, so it reads `1` (assigns `n`) instead. */
  readonly declaring: string | null;
}

const TOP: Context = { scopes: [], inFunction: false, inInitializer: false, inMethod: false, inSubclass: false, declaring: null };

export function renderProgram(program: Program): string {
  const prelude = 'var a = 1;\nvar b = "b";\nvar s = "s";\nvar l = [1, 2, 3];\nvar n = nil;\nvar i = 0;\nvar x = 2;\nvar p = 0;\nvar it = 1;\nvar m = {"a": 1, 2: "two", "__proto__": l};\n' +
    'fun f(x) { return x; }\nfun g(x, y) { return x; }\nfun h() { return h; }\nclass C { init() { this.x = 1; } m() { return this; } }\nclass D < C {}\n';
  const body = program.statements.map((s) => renderStmt(s, TOP, 0)).join('\n');
  const spells = program.spells
    .map(({ name, body: spellBody }) => {
      const ctx: Context = { ...TOP, scopes: [new Set(['self', 'other', 'x', 'p'])], inFunction: true };
      return `spell ${name}(self, other) {\n  var x = 2;\n  var p = 0;\n${renderBody(spellBody, ctx, 1)}\n}`;
    })
    .join('\n');
  return `${prelude}${body}\n${spells}\n`;
}

function indent(depth: number): string {
  return '  '.repeat(depth);
}

function renderBody(body: readonly Stmt[], ctx: Context, depth: number): string {
  return body.map((s) => renderStmt(s, ctx, depth)).join('\n');
}

function withScope(ctx: Context, names: readonly string[] = []): Context {
  return { ...ctx, scopes: [...ctx.scopes, new Set(names)] };
}

/** A statement in a position that needs one statement (if/while bodies): declarations get their own block. */
function renderNested(s: Stmt, ctx: Context, depth: number): string {
  if (s.k === 'var' || s.k === 'fun' || s.k === 'class') return `{\n${renderStmt(s, withScope(ctx), depth + 1)}\n${indent(depth)}}`;
  return renderStmt(s, ctx, depth).trimStart();
}

function renderStmt(s: Stmt, ctx: Context, depth: number): string {
  const pad = indent(depth);
  switch (s.k) {
    case 'print':
      return `${pad}print ${renderExpr(s.e, ctx)};`;
    case 'expr':
      return `${pad}${renderExpr(s.e, ctx)};`;
    case 'var': {
      const scope = ctx.scopes[ctx.scopes.length - 1];
      if (scope?.has(s.name)) return `${pad}${s.name} = ${renderExpr(s.e, ctx)};`;
      const init = renderExpr(s.e, scope ? { ...ctx, declaring: s.name } : ctx);
      scope?.add(s.name);
      return `${pad}var ${s.name} = ${init};`;
    }
    case 'block': {
      const inner = withScope(ctx);
      return `${pad}{\n${renderBody(s.body, inner, depth + 1)}\n${pad}}`;
    }
    case 'if': {
      const elsepart = s.f === null ? '' : ` else ${renderNested(s.f, ctx, depth)}`;
      return `${pad}if (${renderExpr(s.c, ctx)}) ${renderNested(s.t, ctx, depth)}${elsepart}`;
    }
    case 'while':
      return `${pad}while (${renderExpr(s.c, ctx)}) ${renderNested(s.body, ctx, depth)}`;
    case 'for': {
      const inner = withScope(ctx, ['i']);
      return `${pad}for (var i = 0; i < ${renderExpr(s.n, ctx)}; i = i + 1) ${renderNested(s.body, inner, depth)}`;
    }
    case 'forin': {
      const inner = withScope(ctx, ['it']);
      return `${pad}for (it in ${renderExpr(s.e, ctx)}) ${renderNested(s.body, inner, depth)}`;
    }
    case 'fun': {
      const scope = ctx.scopes[ctx.scopes.length - 1];
      if (scope?.has(s.name)) return `${pad}print ${s.name};`;
      scope?.add(s.name);
      const params = PARAMS.slice(0, s.params);
      const inner: Context = { ...withScope(ctx, params), inFunction: true, inInitializer: false, inMethod: false, inSubclass: false, declaring: null };
      // Functions only see `this` through an enclosing method; keep it simple and start fresh.
      return `${pad}fun ${s.name}(${params.join(', ')}) {\n${renderBody(s.body, inner, depth + 1)}\n${pad}}`;
    }
    case 'class': {
      const scope = ctx.scopes[ctx.scopes.length - 1];
      if (scope?.has(s.name)) return `${pad}print ${s.name};`;
      scope?.add(s.name);
      const sup = s.sup !== null && s.sup !== s.name ? s.sup : null;
      const seen = new Set<string>();
      const methods = s.methods
        .filter((m) => !seen.has(m.name) && seen.add(m.name))
        .map((m) => {
          const params = PARAMS.slice(0, m.params);
          const inner: Context = {
            scopes: [...ctx.scopes, new Set(params)],
            inFunction: true,
            inInitializer: m.name === 'init',
            inMethod: true,
            inSubclass: sup !== null,
            declaring: null,
          };
          return `${pad}  ${m.name}(${params.join(', ')}) {\n${renderBody(m.body, inner, depth + 2)}\n${pad}  }`;
        });
      return `${pad}class ${s.name}${sup ? ` < ${sup}` : ''} {\n${methods.join('\n')}\n${pad}}`;
    }
    case 'return':
      if (!ctx.inFunction) return `${pad}print ${s.e ? renderExpr(s.e, ctx) : 'nil'};`;
      if (ctx.inInitializer || s.e === null) return `${pad}return;`;
      return `${pad}return ${renderExpr(s.e, ctx)};`;
  }
}

function renderArgs(args: readonly Expr[], ctx: Context): string {
  return args.map((a) => renderExpr(a, ctx)).join(', ');
}

function renderExpr(e: Expr, ctx: Context): string {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'var':
      if (e.name === ctx.declaring) return '1';
      if ((e.name === 'self' || e.name === 'other') && !ctx.scopes.some((s) => s.has(e.name))) return 'nil';
      return e.name;
    case 'list':
      return `[${renderArgs(e.items, ctx)}]`;
    case 'map':
      // In parentheses: a statement starting with `{` is a block.
      return `({${e.entries.map(([k, v]) => `${renderExpr(k, ctx)}: ${renderExpr(v, ctx)}`).join(', ')}})`;
    case 'template':
      return `\`t${e.parts.map((part, i) => `\${${renderExpr(part, ctx)}}${i}`).join('')}\``;
    case 'index':
      return `${renderPrimary(e.obj, ctx)}[${renderExpr(e.idx, ctx)}]`;
    case 'bin':
      return `(${renderExpr(e.l, ctx)} ${e.op} ${renderExpr(e.r, ctx)})`;
    case 'un':
      return `(${e.op}${renderExpr(e.e, ctx)})`;
    case 'call':
      return `${e.callee === ctx.declaring ? 'f' : e.callee}(${renderArgs(e.args, ctx)})`;
    case 'host':
      return `${e.name}(${renderArgs(e.args, ctx)})`;
    case 'get':
      return `${renderPrimary(e.obj, ctx)}.${e.name}`;
    case 'invoke':
      return `${renderPrimary(e.obj, ctx)}.${e.name}(${renderArgs(e.args, ctx)})`;
    case 'assign': {
      const name = e.name === ctx.declaring ? 'n' : e.name;
      return `(${name} ${e.op} ${renderExpr(e.value, ctx)})`;
    }
    case 'set':
      return `(${renderPrimary(e.obj, ctx)}.${e.name} = ${renderExpr(e.value, ctx)})`;
    case 'setIndex':
      return `(${renderPrimary(e.obj, ctx)}[${renderExpr(e.idx, ctx)}] = ${renderExpr(e.value, ctx)})`;
    case 'this':
      return ctx.inMethod ? 'this' : 'nil';
    case 'super':
      return ctx.inSubclass ? `super.${e.name === 'init' ? 'm' : e.name}` : 'nil';
  }
}

/** An expression usable before `.name` or `[i]`: anything but a bare literal number needs no parentheses once wrapped. */
function renderPrimary(e: Expr, ctx: Context): string {
  const text = renderExpr(e, ctx);
  return /^[A-Za-z_][A-Za-z_0-9]*$|^\(.*\)$|^".*"$/.test(text) && !/^\d/.test(text) ? text : `(${text})`;
}
