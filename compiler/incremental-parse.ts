/**
 * The editors' parse: a tree on every keystroke, parsing again only what
 * the edit touched.
 *
 * The tokens are cut into top-level chunks: a chunk starts at `fun`,
 * `class`, `var` or `spell name` when nothing is open and the token before
 * is `;` or `}`, exactly where a parse of the whole file starts a new
 * declaration. A chunk whose text (and starting column) is the same as in
 * the last version reuses that version's statements and syntax errors,
 * moved to their new lines and offsets; the others are parsed on their own.
 * When no chunk has a syntax error, the tree is exactly a whole-file parse's.
 *
 * When one has, it stays that chunk's: the declarations around it still
 * parse and are analysed (resolved, checked against the host API and the
 * breeds), as rust-analyzer and TypeScript's server give a tree on every
 * keystroke; a half-typed `caster.` in one spell no longer hides the
 * warnings of the others. A chunk with an error is also cut again where a
 * declaration starts at the beginning of a line (`spell`, `fun`, `class`,
 * `var` in column 1), so a '{' left open does not make the rest of the
 * file its body. The syntax errors are each part's own, so they can differ
 * from a whole-file parse's (which `compile()` and `cantrip check` keep,
 * clox's contract): a '}' missing before the next declaration is reported
 * at the end of the part that lacks it.
 */
import type { IToken } from 'chevrotain';
import type * as A from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import type { EndOfInput } from './parse-errors.js';
import { EMPTY_SPAN } from './ast.js';
import { parseTokens, type ParseResult, type TokenParser } from './parse.js';

interface ParsedChunk {
  readonly statements: readonly A.Stmt[];
  /** Its syntax errors, where they were when it was parsed. */
  readonly diagnostics: readonly Diagnostic[];
  /** Where the chunk's first token was when it was parsed. */
  readonly offset: number;
  readonly line: number;
}

interface TokenRange {
  readonly from: number;
  readonly to: number;
}

const DECLARATION_STARTS = new Set(['fun', 'class', 'var']);

export class IncrementalParser implements TokenParser {
  private chunks = new Map<string, ParsedChunk>();

  /** How many chunks the last parse reused and parsed (for tests and the benchmark). */
  lastReuse = { reused: 0, parsed: 0 };

  parseTokens(tokens: IToken[], end: EndOfInput, source: string): ParseResult {
    const previous = this.chunks;
    this.chunks = new Map();
    const body: A.Stmt[] = [];
    const diagnostics: Diagnostic[] = [];
    const counts = { reused: 0, parsed: 0 };
    const chunks = chunksOf(tokens);
    chunks.forEach((chunk, i) => {
      const last = i === chunks.length - 1;
      const known = this.chunk(tokens, chunk, last ? end : null, source, previous, counts, (range, partEnd) => this.parts(tokens, range, partEnd, source, previous, counts));
      this.place(known, tokens[chunk.from]!, body, diagnostics);
    });
    this.lastReuse = counts;
    return { ast: { kind: 'Program', body, loc: { ...EMPTY_SPAN, endLine: end.line, endColumn: end.column, end: end.offset } }, diagnostics };
  }

  /**
   * A chunk's statements and errors: from the last version when its text is
   * the same, else parsed with `parse` (`end`: the file's end for the last
   * chunk, null for one that ends before the next).
   */
  private chunk(
    tokens: readonly IToken[],
    range: TokenRange,
    end: EndOfInput | null,
    source: string,
    previous: ReadonlyMap<string, ParsedChunk>,
    counts: { reused: number; parsed: number },
    parse: (range: TokenRange, end: EndOfInput | null) => ParsedChunk,
  ): ParsedChunk {
    const first = tokens[range.from]!;
    const lastToken = tokens[range.to - 1]!;
    // The last chunk's "at end" errors sit at the file's end: its key runs to the end of the text.
    const text = end === null ? source.slice(first.startOffset, (lastToken.endOffset ?? lastToken.startOffset) + 1) : `$${source.slice(first.startOffset)}`;
    const key = `${first.startColumn}:${text}`;
    let known = previous.get(key) ?? this.chunks.get(key);
    if (known) counts.reused++;
    else {
      known = parse(range, end);
      counts.parsed++;
    }
    this.chunks.set(key, known);
    return known;
  }

  /** A chunk parsed on its own; with syntax errors, in parts cut where declarations start a line. */
  private parts(tokens: readonly IToken[], range: TokenRange, end: EndOfInput | null, source: string, previous: ReadonlyMap<string, ParsedChunk>, counts: { reused: number; parsed: number }): ParsedChunk {
    const whole = parseAlone(tokens, range, end);
    const cuts = lineStartDeclarations(tokens, range);
    if (whole.diagnostics.length === 0 || cuts.length === 0) return whole;
    const first = tokens[range.from]!;
    const statements: A.Stmt[] = [];
    const diagnostics: Diagnostic[] = [];
    const bounds = [range.from, ...cuts, range.to];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const part = { from: bounds[i]!, to: bounds[i + 1]! };
      const lastPart = i + 2 === bounds.length;
      const known = this.chunk(tokens, part, lastPart ? end : null, source, previous, counts, (r, e) => parseAlone(tokens, r, e));
      this.place(known, tokens[part.from]!, statements, diagnostics);
    }
    return { statements, diagnostics, offset: first.startOffset, line: first.startLine ?? 1 };
  }

  /** Append a parsed chunk's statements and errors, moved to where its first token now is. */
  private place(known: ParsedChunk, first: IToken, body: A.Stmt[], diagnostics: Diagnostic[]): void {
    const offset = first.startOffset - known.offset;
    const lines = (first.startLine ?? 1) - known.line;
    body.push(...moved(known.statements, offset, lines));
    for (const d of known.diagnostics) diagnostics.push(lines === 0 ? d : movedDiagnostic(d, lines));
  }
}

/** Parse tokens [from, to) as a file of their own; a part that ends before the next has its "at end" right after its last token. */
function parseAlone(tokens: readonly IToken[], range: TokenRange, end: EndOfInput | null): ParsedChunk {
  const first = tokens[range.from]!;
  const last = tokens[range.to - 1]!;
  const partEnd = end ?? { line: last.endLine ?? last.startLine ?? 1, column: (last.endColumn ?? last.startColumn ?? 0) + 1, offset: (last.endOffset ?? last.startOffset) + 1 };
  const result = parseTokens(tokens.slice(range.from, range.to), partEnd);
  // Not the file's end: an error there is at the part's last token, not "at end" (which sorts and reads as the file's end).
  const diagnostics = end === null ? result.diagnostics.map((d) => (d.token === null ? { ...d, token: '' } : d)) : result.diagnostics;
  return { statements: result.ast.body, diagnostics, offset: first.startOffset, line: first.startLine ?? 1 };
}

/** [from, to) token ranges of the top-level chunks. */
function chunksOf(tokens: readonly IToken[]): TokenRange[] {
  const chunks: TokenRange[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenType.name;
    if (type === 'LeftParen' || type === 'LeftBracket' || type === 'LeftBrace') depth++;
    else if (type === 'RightParen' || type === 'RightBracket' || type === 'RightBrace') depth = Math.max(0, depth - 1);
    if (i > from && depth === 0 && startsDeclaration(tokens, i + 1)) {
      chunks.push({ from, to: i + 1 });
      from = i + 1;
    }
  }
  if (from < tokens.length) chunks.push({ from, to: tokens.length });
  return chunks;
}

/** Does a declaration start at token `i`, right after a `;` or `}`? */
function startsDeclaration(tokens: readonly IToken[], i: number): boolean {
  const before = tokens[i - 1]?.tokenType.name;
  return (before === 'Semicolon' || before === 'RightBrace') && isDeclarationKeyword(tokens, i);
}

function isDeclarationKeyword(tokens: readonly IToken[], i: number): boolean {
  const tok = tokens[i];
  if (tok === undefined) return false;
  if (DECLARATION_STARTS.has(tok.image)) return true;
  // `spell` is a name in plain Lox: a declaration only as `spell name(`.
  return tok.image === 'spell' && tokens[i + 1]?.tokenType.name === 'Identifier' && tokens[i + 2]?.tokenType.name === 'LeftParen';
}

/** The tokens of a range (after its first) where a declaration starts in column 1: where a broken chunk is cut again. */
function lineStartDeclarations(tokens: readonly IToken[], range: TokenRange): number[] {
  const cuts: number[] = [];
  for (let i = range.from + 1; i < range.to; i++) {
    if (tokens[i]!.startColumn === 1 && isDeclarationKeyword(tokens, i)) cuts.push(i);
  }
  return cuts;
}

/** Statements parsed at another place, moved `offset` characters and `lines` lines (columns stay: the chunk starts at the same column). */
function moved(statements: readonly A.Stmt[], offset: number, lines: number): readonly A.Stmt[] {
  if (offset === 0 && lines === 0) return statements;
  return statements.map((s) => shift(s, offset, lines) as A.Stmt);
}

function movedDiagnostic(d: Diagnostic, lines: number): Diagnostic {
  const shifted = { ...d, line: d.line + lines, endLine: d.endLine + lines };
  return d.cloxLine === undefined ? shifted : { ...shifted, cloxLine: d.cloxLine + lines };
}

/** A copy of a tree with every span moved (a span is the only object with numeric `start` and `endLine`). */
function shift(node: object, offset: number, lines: number): object {
  if (Array.isArray(node)) return node.map((child: unknown) => (typeof child === 'object' && child !== null ? shift(child, offset, lines) : child));
  const span = node as Partial<A.SourceSpan>;
  if (typeof span.start === 'number' && typeof span.endLine === 'number') {
    const s = node as A.SourceSpan;
    return { line: s.line + lines, column: s.column, endLine: s.endLine + lines, endColumn: s.endColumn, start: s.start + offset, end: s.end + offset };
  }
  const copy: Record<string, unknown> = {};
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    copy[key] = typeof value === 'object' && value !== null ? shift(value, offset, lines) : value;
  }
  return copy;
}
