/**
 * The typed syntax tree. Every node carries its source span, so diagnostics,
 * the playground's hover and the bytecode ↔ source link can point at it.
 *
 * Nodes produced by chevrotain's error recovery are `ErrorExpr` /
 * `ErrorStmt`; a name the parser had to invent during recovery has the empty
 * string as its text. Every pass must tolerate both.
 */

export interface SourceSpan {
  /** 1-based line and column of the first character. */
  readonly line: number;
  readonly column: number;
  /** 1-based line and column of the character after the last. */
  readonly endLine: number;
  readonly endColumn: number;
  /** 0-based offsets [start, end). */
  readonly start: number;
  readonly end: number;
}

/** A name as written (variable, property, parameter, class …). */
export interface Identifier {
  readonly name: string;
  readonly loc: SourceSpan;
}

// ---- expressions -------------------------------------------------------

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';
/** `=` or a compound assignment; compound ones combine with the matching binary operator. */
export type AssignOperator = '=' | '+=' | '-=' | '*=' | '/=' | '%=';

export interface LiteralExpr {
  readonly kind: 'Literal';
  readonly value: number | string | boolean | null;
  readonly loc: SourceSpan;
}
export interface VariableExpr {
  readonly kind: 'Variable';
  readonly name: Identifier;
  readonly loc: SourceSpan;
}
export interface AssignExpr {
  readonly kind: 'Assign';
  readonly name: Identifier;
  readonly operator: AssignOperator;
  /** Span of the operator token. */
  readonly operatorLoc: SourceSpan;
  readonly value: Expr;
  readonly loc: SourceSpan;
}
export interface BinaryExpr {
  readonly kind: 'Binary';
  readonly operator: BinaryOperator;
  readonly operatorLoc: SourceSpan;
  readonly left: Expr;
  readonly right: Expr;
  readonly loc: SourceSpan;
}
export interface LogicalExpr {
  readonly kind: 'Logical';
  readonly operator: 'and' | 'or';
  readonly operatorLoc: SourceSpan;
  readonly left: Expr;
  readonly right: Expr;
  readonly loc: SourceSpan;
}
export interface UnaryExpr {
  readonly kind: 'Unary';
  readonly operator: '!' | '-';
  readonly operatorLoc: SourceSpan;
  readonly operand: Expr;
  readonly loc: SourceSpan;
}
export interface GroupingExpr {
  readonly kind: 'Grouping';
  readonly expression: Expr;
  readonly loc: SourceSpan;
}
export interface CallExpr {
  readonly kind: 'Call';
  readonly callee: Expr;
  readonly args: readonly Expr[];
  /** Span of the closing parenthesis: clox reports runtime errors of a call on its line. */
  readonly closeLoc: SourceSpan;
  /** Error recovery ran inside the parentheses (`f(a b)`): the argument count is a guess, so it is not checked. */
  readonly recovered?: boolean;
  readonly loc: SourceSpan;
}
export interface GetExpr {
  readonly kind: 'Get';
  readonly object: Expr;
  readonly name: Identifier;
  readonly loc: SourceSpan;
}
export interface SetExpr {
  readonly kind: 'Set';
  readonly object: Expr;
  readonly name: Identifier;
  readonly operator: AssignOperator;
  readonly operatorLoc: SourceSpan;
  readonly value: Expr;
  readonly loc: SourceSpan;
}
export interface IndexExpr {
  readonly kind: 'Index';
  readonly object: Expr;
  readonly index: Expr;
  readonly loc: SourceSpan;
}
export interface SetIndexExpr {
  readonly kind: 'SetIndex';
  readonly object: Expr;
  readonly index: Expr;
  readonly operator: AssignOperator;
  readonly operatorLoc: SourceSpan;
  readonly value: Expr;
  readonly loc: SourceSpan;
}
export interface ThisExpr {
  readonly kind: 'This';
  readonly loc: SourceSpan;
}
export interface SuperExpr {
  readonly kind: 'Super';
  /** Span of the `super` keyword. */
  readonly keywordLoc: SourceSpan;
  readonly method: Identifier;
  readonly loc: SourceSpan;
}
export interface ListExpr {
  readonly kind: 'List';
  readonly elements: readonly Expr[];
  readonly loc: SourceSpan;
}
/** `{key: value, …}` in expression position (a statement starting with `{` is a block). */
export interface MapExpr {
  readonly kind: 'Map';
  readonly entries: readonly { readonly key: Expr; readonly value: Expr }[];
  readonly loc: SourceSpan;
}
/**
 * `` `text ${expr} text` ``: `strings` has one more element than
 * `expressions` (text before, between and after them; possibly empty).
 * A template with no substitution is parsed as a string Literal.
 */
export interface TemplateExpr {
  readonly kind: 'Template';
  readonly strings: readonly string[];
  readonly expressions: readonly Expr[];
  readonly loc: SourceSpan;
}
/** What error recovery leaves where an expression should have been. */
export interface ErrorExpr {
  readonly kind: 'ErrorExpr';
  readonly loc: SourceSpan;
}

export type Expr =
  | LiteralExpr
  | VariableExpr
  | AssignExpr
  | BinaryExpr
  | LogicalExpr
  | UnaryExpr
  | GroupingExpr
  | CallExpr
  | GetExpr
  | SetExpr
  | IndexExpr
  | SetIndexExpr
  | ThisExpr
  | SuperExpr
  | ListExpr
  | MapExpr
  | TemplateExpr
  | ErrorExpr;

// ---- statements --------------------------------------------------------

export interface ExpressionStmt {
  readonly kind: 'ExpressionStmt';
  readonly expression: Expr;
  readonly loc: SourceSpan;
}
export interface PrintStmt {
  readonly kind: 'Print';
  readonly expression: Expr;
  readonly loc: SourceSpan;
}
export interface VarStmt {
  readonly kind: 'Var';
  readonly name: Identifier;
  readonly initializer: Expr | null;
  readonly loc: SourceSpan;
}
export interface BlockStmt {
  readonly kind: 'Block';
  readonly body: readonly Stmt[];
  readonly loc: SourceSpan;
}
export interface IfStmt {
  readonly kind: 'If';
  readonly condition: Expr;
  readonly thenBranch: Stmt;
  readonly elseBranch: Stmt | null;
  readonly loc: SourceSpan;
}
export interface WhileStmt {
  readonly kind: 'While';
  readonly condition: Expr;
  readonly body: Stmt;
  readonly loc: SourceSpan;
}
/** The C-style loop, kept as written (clox compiles it directly, without desugaring). */
export interface ForStmt {
  readonly kind: 'For';
  readonly initializer: VarStmt | ExpressionStmt | null;
  readonly condition: Expr | null;
  readonly increment: Expr | null;
  readonly body: Stmt;
  readonly loc: SourceSpan;
}
/** `for (x in list) body`: `x` is a fresh variable in every iteration. */
export interface ForInStmt {
  readonly kind: 'ForIn';
  readonly variable: Identifier;
  readonly iterable: Expr;
  readonly body: Stmt;
  readonly loc: SourceSpan;
}
export type FunctionKind = 'function' | 'method' | 'initializer' | 'spell';
export interface FunctionStmt {
  readonly kind: 'Function';
  readonly functionKind: FunctionKind;
  readonly name: Identifier;
  readonly params: readonly Identifier[];
  readonly body: readonly Stmt[];
  /** Span of the closing brace: the implicit return's line. */
  readonly closeLoc: SourceSpan;
  readonly loc: SourceSpan;
}
export interface ClassStmt {
  readonly kind: 'Class';
  readonly name: Identifier;
  readonly superclass: VariableExpr | null;
  readonly methods: readonly FunctionStmt[];
  readonly loc: SourceSpan;
}
export interface ReturnStmt {
  readonly kind: 'Return';
  /** Span of the `return` keyword, where the book reports its errors. */
  readonly keywordLoc: SourceSpan;
  readonly value: Expr | null;
  readonly loc: SourceSpan;
}
/** What error recovery leaves where a statement should have been. */
export interface ErrorStmt {
  readonly kind: 'ErrorStmt';
  readonly loc: SourceSpan;
}

export type Stmt =
  | ExpressionStmt
  | PrintStmt
  | VarStmt
  | BlockStmt
  | IfStmt
  | WhileStmt
  | ForStmt
  | ForInStmt
  | FunctionStmt
  | ClassStmt
  | ReturnStmt
  | ErrorStmt;

export interface Program {
  readonly kind: 'Program';
  readonly body: readonly Stmt[];
  readonly loc: SourceSpan;
}

export type Node = Program | Stmt | Expr;

export const EMPTY_SPAN: SourceSpan = Object.freeze({ line: 1, column: 1, endLine: 1, endColumn: 1, start: 0, end: 0 });

/**
 * The span from the start of `a` to the end of `b`. Tolerates missing spans:
 * the parser builds nodes from placeholders while chevrotain records the
 * grammar, and from partial results during error recovery.
 */
export function spanFrom(a: SourceSpan | undefined, b: SourceSpan | undefined): SourceSpan {
  if (a === undefined) return b ?? EMPTY_SPAN;
  if (b === undefined || !(b.end >= a.start)) return a;
  return { line: a.line, column: a.column, endLine: b.endLine, endColumn: b.endColumn, start: a.start, end: b.end };
}
