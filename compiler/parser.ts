/**
 * The parser: tokens → AST, with chevrotain's embedded actions (the tree is
 * built while parsing, no CST pass). One instance is created once and reused
 * (`parser.input = tokens`), as chevrotain recommends: building a parser
 * analyses the grammar, which is far slower than parsing a file.
 *
 * Grammar (the book's, plus the spell extensions):
 *
 *   program     → ( declaration | stray )* EOF
 *   declaration → classDecl | funDecl | spellDecl | varDecl | statement
 *   statement   → print | if | while | for | return | block | exprStmt
 *   expression  → binary ( ( "=" | "+=" | … ) binary )*      (folded right to left)
 *   binary      → unary ( ( "or" | "and" | "==" | … | "*" ) unary )*
 *                 (grouped by the book's precedence table after parsing)
 *   unary       → ( "!" | "-" )* primary ( "(" args ")" | "." name | "[" expression "]" )*
 *
 * Error recovery: chevrotain's (single-token insertion / deletion, re-sync
 * to a follow token) inside statements; at statement level, a token that
 * cannot start one is clox's "Expect expression." followed by clox's
 * panic-mode skip to the next statement. Recovered rules return ErrorExpr /
 * ErrorStmt nodes, and names invented by recovery are ''.
 */

import type { ILookaheadStrategy, IOrAlt, IRecognitionException, IToken, OrMethodOpts, TokenType } from 'chevrotain';
import { EmbeddedActionsParser, LLkLookaheadStrategy, tokenMatcher } from './chevrotain.js';
import {
  EMPTY_SPAN,
  spanFrom,
  type AssignOperator as AssignOp,
  type BinaryOperator,
  type ClassStmt,
  type ErrorExpr,
  type ErrorStmt,
  type Expr,
  type ExpressionStmt,
  type ForInStmt,
  type ForStmt,
  type FunctionKind,
  type FunctionStmt,
  type Identifier as IdentifierNode,
  type SourceSpan,
  type Stmt,
  type VarStmt,
  type VariableExpr,
} from './ast.js';
import { ERROR_MESSAGES, isRealToken, tokenSpan } from './parse-errors.js';
import * as T from './tokens.js';

/** The book's limit on parameters and arguments (clox stores counts in a byte). */
export const MAX_PARAMETERS = 255;
export const MAX_ARGUMENTS = 255;
/** Syntax errors after which parsing stops (compile() shows at most 100 diagnostics). */
const MAX_SYNTAX_ERRORS = 200;
/** Bodies opened by an invented '{' that may be open at once (error recovery only). */
const MAX_INVENTED_BRACES = 8;

/** An error the grammar accepts but the language does not ("Invalid assignment target."). */
export interface SyntaxProblem {
  readonly message: string;
  readonly token: IToken;
}


function spanOf(node: { loc?: SourceSpan } | undefined): SourceSpan {
  return node?.loc ?? EMPTY_SPAN;
}

/**
 * chevrotain's own LL(k) lookahead, each function built the first time the
 * parser needs it rather than all of them when the parser is made: a run of
 * a small program reaches a fraction of the grammar, and building them all
 * was a third of the parser's construction, paid by every `cantrip run`.
 * The functions are the very ones chevrotain builds, from the same grammar.
 */
class LazyLookahead implements ILookaheadStrategy {
  private readonly eager: ILookaheadStrategy;

  constructor(maxLookahead: number) {
    this.eager = new LLkLookaheadStrategy({ maxLookahead });
  }

  validate(options: Parameters<ILookaheadStrategy['validate']>[0]): ReturnType<ILookaheadStrategy['validate']> {
    return this.eager.validate(options);
  }

  buildLookaheadForAlternation(options: Parameters<ILookaheadStrategy['buildLookaheadForAlternation']>[0]): ReturnType<ILookaheadStrategy['buildLookaheadForAlternation']> {
    const eager = this.eager;
    let built: ReturnType<ILookaheadStrategy['buildLookaheadForAlternation']> | undefined;
    return function (this: unknown, orAlts) {
      built ??= eager.buildLookaheadForAlternation(options);
      return built.call(this, orAlts);
    };
  }

  buildLookaheadForOptional(options: Parameters<ILookaheadStrategy['buildLookaheadForOptional']>[0]): ReturnType<ILookaheadStrategy['buildLookaheadForOptional']> {
    const eager = this.eager;
    let built: ReturnType<ILookaheadStrategy['buildLookaheadForOptional']> | undefined;
    return function (this: unknown) {
      built ??= eager.buildLookaheadForOptional(options);
      return built.call(this);
    };
  }
}

/** The two fields of chevrotain's recovery (its `Recoverable` trait) that SpellParser's constructor touches. */
interface RecoveryInternals {
  recoveryEnabled: boolean;
  resyncFollows: Record<string, TokenType[]>;
}

let followSets: Record<string, TokenType[]> | null = null;

/** The follow sets of the grammar, as chevrotain's analysis computes them (once per process). */
function sharedFollowSets(): Record<string, TokenType[]> {
  followSets ??= (new SpellParser({ eagerFollowSets: true }) as unknown as RecoveryInternals).resyncFollows;
  return followSets;
}

export class SpellParser extends EmbeddedActionsParser {
  /** Problems found while building the tree; read after each parse. */
  problems: SyntaxProblem[] = [];
  /** Top-level statements so far: kept even if recovery abandons the program rule. */
  topLevel: Stmt[] = [];
  /** Bodies opened by a '{' that recovery invented, still open (see canTokenTypeBeInsertedInRecovery). */
  private inventedBraces = 0;
  /** The file ended inside blocks: said once, for the innermost. */
  private reportedOpenAtEnd = false;
  /** The expression a call / property / index suffix applies to (see `call`). */
  private callee: Expr = { kind: 'ErrorExpr', loc: EMPTY_SPAN };
  // OR alternatives are built once and reused: rebuilding closures on every
  // call was a large share of parse time (allocation and GC).
  private programAlternatives?: IOrAlt<Stmt | void>[];
  private blockAlternatives?: IOrAlt<Stmt | void>[];
  private declarationAlternatives?: IOrAlt<Stmt>[];
  private statementAlternatives?: OrMethodOpts<Stmt>;
  private suffixAlternatives?: IOrAlt<Expr>[];
  private primaryAlternatives?: OrMethodOpts<Expr>;

  /**
   * `validate` runs chevrotain's grammar checks (ambiguities, left recursion…).
   * They cost a good part of the parser's construction, paid by every CLI
   * start, so production skips them and a unit test keeps them passing.
   *
   * `eagerFollowSets` makes the analysis compute the follow sets of
   * chevrotain's re-sync recovery, as chevrotain always does. Otherwise they
   * are computed the first time recovery asks for them (only a file with a
   * syntax error needs them), by such a parser: they depend on the grammar
   * alone, so one set serves every parser.
   */
  constructor(options: { validate?: boolean; eagerFollowSets?: boolean } = {}) {
    super(T.ALL_TOKENS as TokenType[], {
      recoveryEnabled: true,
      // LL(1), with explicit gates for the two contextual keywords. Deeper
      // lookahead let an unexpected second token (`x x`, `in in`) match no
      // alternative at statement level, which ended the whole parse early.
      maxLookahead: 1,
      lookaheadStrategy: new LazyLookahead(1),
      errorMessageProvider: ERROR_MESSAGES,
      skipValidations: !options.validate,
    });
    if (options.eagerFollowSets) {
      this.performSelfAnalysis();
      return;
    }
    // chevrotain's analysis computes the follow sets only when recovery is on (and nothing else depends on the flag there).
    const recovery = this as unknown as RecoveryInternals;
    recovery.recoveryEnabled = false;
    try {
      this.performSelfAnalysis();
    } finally {
      recovery.recoveryEnabled = true;
    }
    Object.defineProperty(this, 'resyncFollows', { configurable: true, enumerable: true, get: sharedFollowSets });
  }

  /**
   * Recovery may pretend a missing token was there. An invented '{' (as in
   * `fun f() 123;`) makes the rest of the file that function's body, as in
   * clox; but on garbage input such bodies would nest without end (each
   * re-sync then scans the whole rule stack: quadratic time, then a stack
   * overflow). So only a few invented braces may be open at once.
   */
  protected override canTokenTypeBeInsertedInRecovery(tokType: TokenType): boolean {
    return tokType !== T.LeftBrace || this.inventedBraces < MAX_INVENTED_BRACES;
  }

  /**
   * Recovery may skip one unexpected token when the next is the one wanted;
   * never a '}': in `caster.` + `}` + `spell c(…)` it would take `spell` (a
   * name in plain Lox) as the property and make the next declaration part
   * of this block, losing both to the editor's analysis. clox reports the
   * same error at the '}' and closes the block there.
   */
  protected override canTokenTypeBeDeletedInRecovery(_expected: TokenType): boolean {
    // chevrotain passes the type it expected; the token it would delete is the next one.
    return this.LA(1).tokenType !== T.RightBrace;
  }

  /** `{ body }` of a function or class: counts a '{' invented by recovery while its body is open. */
  private openBody<R>(open: IToken, body: () => R): R {
    const invented = open.isInsertedInRecovery === true;
    if (invented) this.inventedBraces++;
    try {
      return body();
    } finally {
      if (invented) this.inventedBraces--;
    }
  }

  /** Prepare for a new input (the one parser instance is reused). */
  override reset(): void {
    super.reset();
    this.problems = [];
    this.topLevel = [];
    this.inventedBraces = 0;
    this.reportedOpenAtEnd = false;
  }

  /**
   * Fast path for the expression rules: most operands have no operator,
   * prefix or suffix, and skipping the MANY then saves a closure and
   * chevrotain's repetition bookkeeping per operand. While chevrotain
   * records the grammar, every path must be taken, so it answers true.
   */
  private ahead(category: TokenType): boolean {
    return this.RECORDING_PHASE || tokenMatcher(this.LA(1), category);
  }

  /**
   * Past this many syntax errors the parser stops reading statements: only
   * the first hundred are shown, and recovering from each of thousands more
   * (a binary file) would only cost time.
   */
  private keepGoing(): boolean {
    return this.errors.length + this.problems.length < MAX_SYNTAX_ERRORS;
  }

  /** The next unconsumed token (where a parse stopped). */
  currentToken(): IToken {
    return this.LA(1);
  }

  // ---- helpers --------------------------------------------------------

  /** The span of a token; a token invented by recovery sits right after the previous one. */
  private span(tok: IToken | undefined): SourceSpan {
    if (isRealToken(tok)) return tokenSpan(tok);
    const prev = this.LA(0);
    if (!isRealToken(prev)) return EMPTY_SPAN;
    const s = tokenSpan(prev);
    return { line: s.endLine, column: s.endColumn, endLine: s.endLine, endColumn: s.endColumn, start: s.end, end: s.end };
  }

  private identifier(tok: IToken): IdentifierNode {
    return { name: tok.image ?? '', loc: this.span(tok) };
  }

  private problem(message: string, token: IToken): void {
    if (!this.RECORDING_PHASE) this.problems.push({ message, token });
  }

  private errorExpr = (e: IRecognitionException): ErrorExpr => ({ kind: 'ErrorExpr', loc: this.span(e.token) });
  private errorStmt = (e: IRecognitionException): ErrorStmt => ({ kind: 'ErrorStmt', loc: this.span(e.token) });

  /** clox's synchronize(): may panic-mode recovery skip the next token? */
  private canSkip(): boolean {
    const next = this.LA(1);
    if (next.tokenType === T.RightBrace || !isRealToken(next)) return false;
    if (this.LA(0).tokenType === T.Semicolon) return false;
    return !T.STATEMENT_KEYWORDS.has(next.tokenType);
  }

  // ---- declarations ---------------------------------------------------

  public program = this.RULE('program', (): void => {
    this.MANY({
      GATE: () => this.keepGoing(),
      DEF: () => {
        const stmt = this.OR(
          (this.programAlternatives ??= [
            { ALT: () => this.SUBRULE(this.declaration) },
            { ALT: () => this.SUBRULE(this.stray) },
            // A '}' with no block to close.
            { ALT: () => this.SUBRULE(this.strayBrace) },
          ]),
        );
        if (stmt) this.topLevel.push(stmt);
      },
    });
  });

  private stray = this.RULE('stray', (): void => {
    const tok = this.CONSUME(T.StrayToken);
    this.problem('Expect expression.', tok);
    this.SUBRULE(this.synchronize);
  });

  private strayBrace = this.RULE('strayBrace', (): void => {
    const tok = this.CONSUME(T.RightBrace);
    this.problem('Expect expression.', tok);
    this.SUBRULE(this.synchronize);
  });

  private synchronize = this.RULE('synchronize', (): void => {
    this.MANY({ GATE: () => this.canSkip(), DEF: () => this.CONSUME(T.AnyToken) });
  });

  public declaration = this.RULE(
    'declaration',
    (): Stmt =>
      this.OR(
        (this.declarationAlternatives ??= [
          { ALT: () => this.SUBRULE(this.classDeclaration) },
          { ALT: () => this.SUBRULE(this.funDeclaration) },
          {
            // `spell name(…)`; any other `spell` is an identifier in a statement.
            GATE: () => tokenMatcher(this.LA(2), T.Identifier),
            ALT: () => this.SUBRULE(this.spellDeclaration),
            IGNORE_AMBIGUITIES: true,
          },
          { ALT: () => this.SUBRULE(this.varDeclaration) },
          { ALT: () => this.SUBRULE(this.statement) },
        ]),
      ),
    { recoveryValueFunc: this.errorStmt },
  );

  private classDeclaration = this.RULE(
    'classDeclaration',
    (): ClassStmt | ErrorStmt => {
      const start = this.CONSUME(T.Class);
      const name = this.CONSUME(T.Identifier, { ERR_MSG: 'Expect class name.' });
      let superclass: VariableExpr | null = null;
      this.OPTION(() => {
        this.CONSUME(T.Less);
        const tok = this.CONSUME2(T.Identifier, { ERR_MSG: 'Expect superclass name.' });
        const id = this.identifier(tok);
        superclass = { kind: 'Variable', name: id, loc: id.loc };
      });
      const open = this.CONSUME(T.LeftBrace, { ERR_MSG: "Expect '{' before class body." });
      const methods: FunctionStmt[] = [];
      const end = this.openBody(open, () => {
        this.MANY(() => {
          const method = this.SUBRULE(this.functionRest, { ARGS: ['method'] });
          if (method?.kind === 'Function') methods.push(method);
        });
        return this.CONSUME(T.RightBrace, { ERR_MSG: "Expect '}' after class body." });
      });
      return {
        kind: 'Class',
        name: this.identifier(name),
        superclass,
        methods,
        loc: spanFrom(this.span(start), this.span(end)),
      };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private funDeclaration = this.RULE(
    'funDeclaration',
    (): FunctionStmt | ErrorStmt => {
      const start = this.CONSUME(T.Fun);
      const fn = this.SUBRULE(this.functionRest, { ARGS: ['function'] });
      return fn?.kind === 'Function' ? { ...fn, loc: spanFrom(this.span(start), fn.loc) } : fn;
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private spellDeclaration = this.RULE(
    'spellDeclaration',
    (): FunctionStmt | ErrorStmt => {
      const start = this.CONSUME(T.Spell);
      const fn = this.SUBRULE(this.functionRest, { ARGS: ['spell'] });
      return fn?.kind === 'Function' ? { ...fn, loc: spanFrom(this.span(start), fn.loc) } : fn;
    },
    { recoveryValueFunc: this.errorStmt },
  );

  /** name ( params ) { body } — shared by functions, methods and spells. */
  private functionRest = this.RULE(
    'functionRest',
    (kind: FunctionKind): FunctionStmt | ErrorStmt => {
      const nameMessage =
        kind === 'method' ? 'Expect method name.' : kind === 'spell' ? 'Expect spell name.' : 'Expect function name.';
      const name = this.CONSUME(T.Identifier, { ERR_MSG: nameMessage });
      this.CONSUME(T.LeftParen, { ERR_MSG: `Expect '(' after ${kind === 'spell' ? 'spell' : 'function'} name.` });
      const params: IdentifierNode[] = [];
      this.MANY_SEP({
        SEP: T.Comma,
        DEF: () => {
          const tok = this.CONSUME2(T.Identifier, { ERR_MSG: 'Expect parameter name.' });
          if (params.length === MAX_PARAMETERS) this.problem(`Can't have more than ${MAX_PARAMETERS} parameters.`, tok);
          params.push(this.identifier(tok));
        },
      });
      this.CONSUME(T.RightParen, { ERR_MSG: "Expect ')' after parameters." });
      const open = this.CONSUME(T.LeftBrace, { ERR_MSG: "Expect '{' before function body." });
      const block = this.openBody(open, () => this.SUBRULE(this.blockRest));
      const id = this.identifier(name);
      const functionKind: FunctionKind = kind === 'method' && id.name === 'init' ? 'initializer' : kind;
      return {
        kind: 'Function',
        functionKind,
        name: id,
        params,
        body: block.body,
        closeLoc: block.closeLoc,
        loc: spanFrom(id.loc, block.closeLoc),
      };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private varDeclaration = this.RULE(
    'varDeclaration',
    (): VarStmt | ErrorStmt => {
      const start = this.CONSUME(T.Var);
      const name = this.CONSUME(T.Identifier, { ERR_MSG: 'Expect variable name.' });
      const initializer =
        this.OPTION(() => {
          this.CONSUME(T.Equal);
          return this.SUBRULE(this.expression);
        }) ?? null;
      const end = this.CONSUME(T.Semicolon, { ERR_MSG: "Expect ';' after variable declaration." });
      return {
        kind: 'Var',
        name: this.identifier(name),
        initializer,
        loc: spanFrom(this.span(start), this.span(end)),
      };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  // ---- statements -----------------------------------------------------

  private statement = this.RULE(
    'statement',
    (): Stmt =>
      this.OR(
        (this.statementAlternatives ??= {
          DEF: [
            { ALT: () => this.SUBRULE(this.printStatement) },
            { ALT: () => this.SUBRULE(this.ifStatement) },
            { ALT: () => this.SUBRULE(this.whileStatement) },
            { ALT: () => this.SUBRULE(this.forStatement) },
            { ALT: () => this.SUBRULE(this.returnStatement) },
            // A statement starting with `{` is a block, never a map literal (chosen first, as in JavaScript).
            { ALT: () => this.SUBRULE(this.block), IGNORE_AMBIGUITIES: true },
            { ALT: () => this.SUBRULE(this.expressionStatement) },
          ],
          ERR_MSG: 'Expect expression.',
        }),
      ),
    { recoveryValueFunc: this.errorStmt },
  );

  private printStatement = this.RULE(
    'printStatement',
    (): Stmt => {
      const start = this.CONSUME(T.Print);
      const expression = this.SUBRULE(this.expression);
      const end = this.CONSUME(T.Semicolon, { ERR_MSG: "Expect ';' after value." });
      return { kind: 'Print', expression, loc: spanFrom(this.span(start), this.span(end)) };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private expressionStatement = this.RULE(
    'expressionStatement',
    (): ExpressionStmt | ErrorStmt => {
      const expression = this.SUBRULE(this.expression);
      const end = this.CONSUME(T.Semicolon, { ERR_MSG: "Expect ';' after expression." });
      return { kind: 'ExpressionStmt', expression, loc: spanFrom(spanOf(expression), this.span(end)) };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  /**
   * `if … else if … else …` chains are read in a loop (the tree still nests
   * them, as the book's grammar does), so a long chain costs no parser stack.
   */
  private ifStatement = this.RULE(
    'ifStatement',
    (): Stmt => {
      const links: { start: IToken; condition: Expr; thenBranch: Stmt }[] = [];
      const start = this.CONSUME(T.If);
      links.push({ start, ...this.SUBRULE(this.ifRest) });
      this.MANY({
        GATE: () => this.LA(2).tokenType === T.If,
        DEF: () => {
          this.CONSUME(T.Else);
          const next = this.CONSUME2(T.If);
          links.push({ start: next, ...this.SUBRULE2(this.ifRest) });
        },
      });
      const elseBranch =
        this.OPTION(() => {
          this.CONSUME2(T.Else);
          return this.SUBRULE(this.statement);
        }) ?? null;
      if (this.RECORDING_PHASE) return elseBranch!;
      let tail: Stmt | null = elseBranch;
      for (let i = links.length - 1; i >= 0; i--) {
        const link = links[i]!;
        tail = {
          kind: 'If',
          condition: link.condition,
          thenBranch: link.thenBranch,
          elseBranch: tail,
          loc: spanFrom(this.span(link.start), spanOf(tail ?? link.thenBranch)),
        };
      }
      return tail!;
    },
    { recoveryValueFunc: this.errorStmt },
  );

  /** ( condition ) statement — after `if`. */
  private ifRest = this.RULE(
    'ifRest',
    (): { condition: Expr; thenBranch: Stmt } => {
      this.CONSUME(T.LeftParen, { ERR_MSG: "Expect '(' after 'if'." });
      const condition = this.SUBRULE(this.expression);
      this.CONSUME(T.RightParen, { ERR_MSG: "Expect ')' after condition." });
      const thenBranch = this.SUBRULE(this.statement);
      return { condition, thenBranch };
    },
    {
      recoveryValueFunc: (e: IRecognitionException) => ({ condition: this.errorExpr(e), thenBranch: this.errorStmt(e) }),
    },
  );

  private whileStatement = this.RULE(
    'whileStatement',
    (): Stmt => {
      const start = this.CONSUME(T.While);
      this.CONSUME(T.LeftParen, { ERR_MSG: "Expect '(' after 'while'." });
      const condition = this.SUBRULE(this.expression);
      this.CONSUME(T.RightParen, { ERR_MSG: "Expect ')' after condition." });
      const body = this.SUBRULE(this.statement);
      return { kind: 'While', condition, body, loc: spanFrom(this.span(start), spanOf(body)) };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private forStatement = this.RULE(
    'forStatement',
    (): Stmt => {
      const start = this.CONSUME(T.For);
      this.CONSUME(T.LeftParen, { ERR_MSG: "Expect '(' after 'for'." });
      return this.OR([
        {
          // for (x in list) / for (var x in list)
          GATE: () => this.isForIn(),
          ALT: () => this.SUBRULE(this.forInRest, { ARGS: [start] }),
          IGNORE_AMBIGUITIES: true,
        },
        { ALT: () => this.SUBRULE(this.forClassicRest, { ARGS: [start] }) },
      ]);
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private isForIn(): boolean {
    const offset = this.LA(1).tokenType === T.Var ? 1 : 0;
    return tokenMatcher(this.LA(1 + offset), T.Identifier) && this.LA(2 + offset).tokenType === T.In;
  }

  private forInRest = this.RULE(
    'forInRest',
    (start: IToken): ForInStmt | ErrorStmt => {
      this.OPTION(() => this.CONSUME(T.Var));
      const variable = this.CONSUME(T.Identifier, { ERR_MSG: 'Expect variable name.' });
      this.CONSUME(T.In, { ERR_MSG: "Expect 'in' after loop variable." });
      const iterable = this.SUBRULE(this.expression);
      this.CONSUME(T.RightParen, { ERR_MSG: "Expect ')' after for clauses." });
      const body = this.SUBRULE(this.statement);
      return {
        kind: 'ForIn',
        variable: this.identifier(variable),
        iterable,
        body,
        loc: spanFrom(this.span(start), spanOf(body)),
      };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private forClassicRest = this.RULE(
    'forClassicRest',
    (start: IToken): ForStmt | ErrorStmt => {
      const initializer = this.OR({
        DEF: [
          { ALT: () => (this.CONSUME(T.Semicolon), null) },
          { ALT: () => this.SUBRULE(this.varDeclaration) },
          { ALT: () => this.SUBRULE(this.expressionStatement) },
        ],
        ERR_MSG: 'Expect expression.',
      });
      // As clox: a clause is either empty or an expression, so `for (;{};)` is "Expect expression.".
      const condition = this.OR2({
        DEF: [
          { ALT: () => (this.CONSUME2(T.Semicolon), null) },
          {
            ALT: () => {
              const expr = this.SUBRULE(this.expression);
              this.CONSUME3(T.Semicolon, { ERR_MSG: "Expect ';' after loop condition." });
              return expr;
            },
          },
        ],
        ERR_MSG: 'Expect expression.',
      });
      const increment = this.OR3({
        DEF: [
          { ALT: () => (this.CONSUME(T.RightParen), null) },
          {
            ALT: () => {
              const expr = this.SUBRULE2(this.expression);
              this.CONSUME2(T.RightParen, { ERR_MSG: "Expect ')' after for clauses." });
              return expr;
            },
          },
        ],
        ERR_MSG: 'Expect expression.',
      });
      const body = this.SUBRULE(this.statement);
      return {
        kind: 'For',
        initializer: initializer?.kind === 'Var' || initializer?.kind === 'ExpressionStmt' ? initializer : null,
        condition,
        increment,
        body,
        loc: spanFrom(this.span(start), spanOf(body)),
      };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private returnStatement = this.RULE(
    'returnStatement',
    (): Stmt => {
      const keyword = this.CONSUME(T.Return);
      // As clox: `return;` or `return expression;` — anything else is "Expect expression.".
      let end: IToken | undefined;
      const value = this.OR({
        DEF: [
          { ALT: () => ((end = this.CONSUME(T.Semicolon)), null) },
          {
            ALT: () => {
              const expr = this.SUBRULE(this.expression);
              end = this.CONSUME2(T.Semicolon, { ERR_MSG: "Expect ';' after return value." });
              return expr;
            },
          },
        ],
        ERR_MSG: 'Expect expression.',
      });
      const keywordLoc = this.span(keyword);
      return { kind: 'Return', keywordLoc, value, loc: spanFrom(keywordLoc, this.span(end)) };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  private block = this.RULE(
    'block',
    (): Stmt => {
      const start = this.CONSUME(T.LeftBrace);
      const rest = this.SUBRULE(this.blockRest);
      return { kind: 'Block', body: rest.body, loc: spanFrom(this.span(start), rest.closeLoc) };
    },
    { recoveryValueFunc: this.errorStmt },
  );

  /** declarations… '}' (after the '{'). */
  private blockRest = this.RULE(
    'blockRest',
    (): { body: Stmt[]; closeLoc: SourceSpan } => {
      const body: Stmt[] = [];
      this.MANY({
        GATE: () => this.keepGoing(),
        DEF: () => {
          const stmt = this.OR(
            (this.blockAlternatives ??= [
              { ALT: () => this.SUBRULE(this.declaration) },
              { ALT: () => this.SUBRULE(this.stray) },
            ]),
          );
          if (stmt) body.push(stmt);
        },
      });
      // The file ended inside the block: the error clox gives, and the statements read so far kept
      // (an exception here would drop the whole function the block belongs to, and the editor's
      // analysis of everything in it, while the user is still typing it).
      if (!this.RECORDING_PHASE && this.LA(1).tokenType.name === 'EOF') {
        if (!this.reportedOpenAtEnd) this.problem("Expect '}' after block.", this.LA(1));
        this.reportedOpenAtEnd = true;
        return { body, closeLoc: this.span(this.LA(1)) };
      }
      const end = this.CONSUME(T.RightBrace, { ERR_MSG: "Expect '}' after block." });
      return { body, closeLoc: this.span(end) };
    },
    { recoveryValueFunc: (e: IRecognitionException) => ({ body: [], closeLoc: this.span(e.token) }) },
  );

  // ---- expressions ----------------------------------------------------

  /**
   * Assignment is right-associative; it is parsed as a flat list
   * (`a = b = c`) and folded from the right, so a long chain costs no stack.
   */
  public expression = this.RULE(
    'expression',
    (): Expr => {
      const targets: Expr[] = [this.SUBRULE(this.binary)];
      if (!this.ahead(T.AssignOperator)) return targets[0]!;
      const operators: IToken[] = [];
      this.MANY(() => {
        operators.push(this.CONSUME(T.AssignOperator));
        targets.push(this.SUBRULE2(this.binary));
      });
      if (this.RECORDING_PHASE) return targets[0]!;
      let value = targets[targets.length - 1]!;
      for (let i = operators.length - 1; i >= 0; i--) value = this.assignment(targets[i]!, operators[i]!, value);
      return value;
    },
    { recoveryValueFunc: this.errorExpr },
  );

  /** The book's trick: parse the target as an expression, then check it can be assigned. */
  private assignment(target: Expr, operatorToken: IToken, value: Expr): Expr {
    const operator = (operatorToken.image || '=') as AssignOp;
    const operatorLoc = this.span(operatorToken);
    const loc = spanFrom(spanOf(target), spanOf(value));
    switch (target?.kind) {
      case 'Variable':
        return { kind: 'Assign', name: target.name, operator, operatorLoc, value, loc };
      case 'Get':
        return { kind: 'Set', object: target.object, name: target.name, operator, operatorLoc, value, loc };
      case 'Index':
        return { kind: 'SetIndex', object: target.object, index: target.index, operator, operatorLoc, value, loc };
      case 'ErrorExpr':
        return target;
      default:
        this.problem('Invalid assignment target.', operatorToken);
        return target ?? value;
    }
  }

  /**
   * All binary operators (`or` … `*`) in one rule: operands and operators are
   * read as a flat list, then grouped by precedence with an operator stack.
   * Seven precedence rules would cost seven nested rule calls per operand
   * (slower, and far more stack per level of parentheses).
   */
  private binary = this.RULE(
    'binary',
    (): Expr => {
      const operands: Expr[] = [this.SUBRULE(this.unary)];
      if (!this.ahead(T.BinaryOperator)) return operands[0]!;
      const operators: IToken[] = [];
      this.MANY(() => {
        operators.push(this.CONSUME(T.BinaryOperator));
        operands.push(this.SUBRULE2(this.unary));
      });
      if (operators.length === 0 || this.RECORDING_PHASE) return operands[0]!;
      return this.groupByPrecedence(operands, operators);
    },
    { recoveryValueFunc: this.errorExpr },
  );

  /** Precedence climbing without recursion: equal precedence groups to the left. */
  private groupByPrecedence(operands: Expr[], operators: IToken[]): Expr {
    const values: Expr[] = [operands[0]!];
    const pending: IToken[] = [];
    const reduce = () => {
      const op = pending.pop()!;
      const right = values.pop()!;
      const left = values.pop()!;
      values.push(this.combine(op, left, right));
    };
    for (let i = 0; i < operators.length; i++) {
      const op = operators[i]!;
      const precedence = T.precedenceOf(op.tokenType);
      while (pending.length > 0 && T.precedenceOf(pending[pending.length - 1]!.tokenType) >= precedence) reduce();
      pending.push(op);
      values.push(operands[i + 1]!);
    }
    while (pending.length > 0) reduce();
    return values[0]!;
  }

  private combine(op: IToken, left: Expr, right: Expr): Expr {
    const operatorLoc = this.span(op);
    const loc = spanFrom(spanOf(left), spanOf(right));
    if (op.tokenType === T.And || op.tokenType === T.Or) {
      return { kind: 'Logical', operator: op.tokenType === T.And ? 'and' : 'or', operatorLoc, left, right, loc };
    }
    return { kind: 'Binary', operator: op.image as BinaryOperator, operatorLoc, left, right, loc };
  }

  /**
   * One operand: prefix operators, a primary, then call / property / index
   * suffixes. One rule rather than the book's unary → call → primary keeps
   * each level of parentheses cheap in stack (and each operand fast); the
   * prefixes are read as a run, so `!!!!x` costs no stack either. Suffixes
   * bind tighter than prefixes: `-a.b` is `-(a.b)`.
   */
  private unary = this.RULE(
    'unary',
    (): Expr => {
      let prefixes: IToken[] | null = null;
      if (this.ahead(T.UnaryOperator)) {
        const run: IToken[] = (prefixes = []);
        this.MANY(() => void run.push(this.CONSUME(T.UnaryOperator)));
      }
      let expr = this.SUBRULE(this.primary);
      if (this.ahead(T.CallSuffixStart)) {
        this.MANY2(() => {
          // The suffix alternatives are built once; the expression they extend is passed in a field.
          this.callee = expr;
          expr = this.OR(
            (this.suffixAlternatives ??= [
              {
                ALT: (): Expr => {
                  const callee = this.callee;
                  const errorsBefore = this.errors.length;
                  this.CONSUME(T.LeftParen);
                  const args: Expr[] = [];
                  this.MANY_SEP({
                    SEP: T.Comma,
                    DEF: () => {
                      const arg = this.SUBRULE(this.expression);
                      if (args.length === MAX_ARGUMENTS) this.problem(`Can't have more than ${MAX_ARGUMENTS} arguments.`, this.LA(0));
                      args.push(arg);
                    },
                  });
                  const close = this.CONSUME(T.RightParen, { ERR_MSG: "Expect ')' after arguments." });
                  const closeLoc = this.span(close);
                  const call = { kind: 'Call' as const, callee, args, closeLoc, loc: spanFrom(spanOf(callee), closeLoc) };
                  // Recovery inside the parentheses (a token deleted or invented) leaves a guessed argument list.
                  return this.errors.length === errorsBefore ? call : { ...call, recovered: true };
                },
              },
              {
                ALT: (): Expr => {
                  const object = this.callee;
                  this.CONSUME(T.Dot);
                  const name = this.identifier(this.CONSUME(T.Identifier, { ERR_MSG: "Expect property name after '.'." }));
                  return { kind: 'Get', object, name, loc: spanFrom(spanOf(object), name.loc) };
                },
              },
              {
                ALT: (): Expr => {
                  const object = this.callee;
                  this.CONSUME(T.LeftBracket);
                  const index = this.SUBRULE2(this.expression);
                  const close = this.CONSUME(T.RightBracket, { ERR_MSG: "Expect ']' after index." });
                  return { kind: 'Index', object, index, loc: spanFrom(spanOf(object), this.span(close)) };
                },
              },
            ]),
          );
        });
      }
      if (prefixes === null || this.RECORDING_PHASE) return expr;
      for (let i = prefixes.length - 1; i >= 0; i--) {
        const op = prefixes[i]!;
        const operatorLoc = this.span(op);
        expr = { kind: 'Unary', operator: op.image === '!' ? '!' : '-', operatorLoc, operand: expr, loc: spanFrom(operatorLoc, spanOf(expr)) };
      }
      return expr;
    },
    { recoveryValueFunc: this.errorExpr },
  );

  private primary = this.RULE(
    'primary',
    (): Expr =>
      this.OR(
        (this.primaryAlternatives ??= {
          DEF: [
            { ALT: () => ({ kind: 'Literal', value: true, loc: this.span(this.CONSUME(T.True)) }) },
            { ALT: () => ({ kind: 'Literal', value: false, loc: this.span(this.CONSUME(T.False)) }) },
            { ALT: () => ({ kind: 'Literal', value: null, loc: this.span(this.CONSUME(T.Nil)) }) },
            {
              ALT: () => {
                const tok = this.CONSUME(T.NumberLiteral);
                return { kind: 'Literal', value: Number(tok.image), loc: this.span(tok) };
              },
            },
            {
              ALT: () => {
                const tok = this.CONSUME(T.StringLiteral);
                return { kind: 'Literal', value: (tok.image ?? '""').slice(1, -1), loc: this.span(tok) };
              },
            },
            { ALT: () => ({ kind: 'This', loc: this.span(this.CONSUME(T.This)) }) },
            {
              ALT: () => {
                const name = this.identifier(this.CONSUME(T.Identifier));
                return { kind: 'Variable', name, loc: name.loc };
              },
            },
            {
              ALT: () => {
                const open = this.CONSUME(T.LeftParen);
                const expression = this.SUBRULE(this.expression);
                const close = this.CONSUME(T.RightParen, { ERR_MSG: "Expect ')' after expression." });
                return { kind: 'Grouping', expression, loc: spanFrom(this.span(open), this.span(close)) };
              },
            },
            {
              ALT: () => {
                const keyword = this.CONSUME(T.Super);
                this.CONSUME(T.Dot, { ERR_MSG: "Expect '.' after 'super'." });
                const method = this.identifier(this.CONSUME2(T.Identifier, { ERR_MSG: 'Expect superclass method name.' }));
                const keywordLoc = this.span(keyword);
                return { kind: 'Super', keywordLoc, method, loc: spanFrom(keywordLoc, method.loc) };
              },
            },
            {
              ALT: () => {
                const open = this.CONSUME(T.LeftBracket);
                const elements: Expr[] = [];
                this.MANY_SEP({ SEP: T.Comma, DEF: () => void elements.push(this.SUBRULE2(this.expression)) });
                const close = this.CONSUME(T.RightBracket, { ERR_MSG: "Expect ']' after list elements." });
                return { kind: 'List', elements, loc: spanFrom(this.span(open), this.span(close)) };
              },
            },
            { ALT: () => this.SUBRULE(this.mapLiteral) },
            {
              ALT: () => {
                const tok = this.CONSUME(T.TemplateString);
                return { kind: 'Literal', value: (tok.image ?? '``').slice(1, -1), loc: this.span(tok) };
              },
            },
            { ALT: () => this.SUBRULE(this.template) },
          ],
          ERR_MSG: 'Expect expression.',
        }),
      ),
    { recoveryValueFunc: this.errorExpr },
  );

  /** `{` ( expression `:` expression ( `,` … )* )? `}` */
  private mapLiteral = this.RULE(
    'mapLiteral',
    (): Expr => {
      const open = this.CONSUME(T.LeftBrace);
      const entries: { key: Expr; value: Expr }[] = [];
      this.MANY_SEP({
        SEP: T.Comma,
        DEF: () => {
          const key = this.SUBRULE(this.expression);
          this.CONSUME(T.Colon, { ERR_MSG: "Expect ':' after map key." });
          const value = this.SUBRULE2(this.expression);
          entries.push({ key, value });
        },
      });
      const close = this.CONSUME(T.RightBrace, { ERR_MSG: "Expect '}' after map entries." });
      return { kind: 'Map', entries, loc: spanFrom(this.span(open), this.span(close)) };
    },
    { recoveryValueFunc: this.errorExpr },
  );

  /** `` `text${`` expression ( `}text${` expression )* `` }text` `` (compiler/template-lexing.ts). */
  private template = this.RULE(
    'template',
    (): Expr => {
      const head = this.CONSUME(T.TemplateHead);
      const strings: string[] = [(head.image ?? '`${').slice(1, -2)];
      const expressions: Expr[] = [this.SUBRULE(this.expression)];
      this.MANY(() => {
        const middle = this.CONSUME(T.TemplateMiddle);
        strings.push((middle.image ?? '}${').slice(1, -2));
        expressions.push(this.SUBRULE2(this.expression));
      });
      const tail = this.CONSUME(T.TemplateTail, { ERR_MSG: "Expect '}' after template expression." });
      strings.push((tail.image ?? '}`').slice(1, -1));
      return { kind: 'Template', strings, expressions, loc: spanFrom(this.span(head), this.span(tail)) };
    },
    { recoveryValueFunc: this.errorExpr },
  );
}
