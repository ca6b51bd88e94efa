/**
 * Parsing an edited file again without parsing all of it: an editor's
 * keystroke changes one top-level statement of a thousand-line spell, and
 * chevrotain's parse is most of a compile.
 *
 * The tokens are cut into top-level chunks: a chunk starts at `fun`,
 * `class`, `var` or `spell name` when nothing is open and the token before
 * is `;` or `}`, exactly where a parse of the whole file starts a new
 * declaration. A chunk whose text (and starting column) is the same as in
 * the last version reuses that version's statements, moved to their new
 * lines and offsets; the others are parsed on their own. When any chunk has
 * a syntax error the whole file is parsed as one, so error recovery and the
 * messages are always exactly those of a full parse.
 */
import type { IToken } from 'chevrotain';
import type * as A from './ast.js';
import type { EndOfInput } from './parse-errors.js';
import { EMPTY_SPAN } from './ast.js';
import { parseTokens, type ParseResult, type TokenParser } from './parse.js';

interface ParsedChunk {
  readonly statements: readonly A.Stmt[];
  /** Where the chunk's first token was when it was parsed. */
  readonly offset: number;
  readonly line: number;
}

const DECLARATION_STARTS = new Set(['fun', 'class', 'var']);

export class IncrementalParser implements TokenParser {
  private chunks = new Map<string, ParsedChunk>();

  /** How many chunks the last parse reused and parsed (for tests and the benchmark). */
  lastReuse = { reused: 0, parsed: 0, whole: false };

  parseTokens(tokens: IToken[], end: EndOfInput, source: string): ParseResult {
    const previous = this.chunks;
    this.chunks = new Map();
    const body: A.Stmt[] = [];
    let reused = 0;
    let parsed = 0;
    for (const chunk of chunksOf(tokens)) {
      const first = tokens[chunk.from]!;
      const last = tokens[chunk.to - 1]!;
      const key = `${first.startColumn}:${source.slice(first.startOffset, (last.endOffset ?? last.startOffset) + 1)}`;
      let known = previous.get(key) ?? this.chunks.get(key);
      if (known) reused++;
      else {
        const result = parseTokens(tokens.slice(chunk.from, chunk.to), end);
        // A syntax error: only a parse of the whole file recovers and reports as a full parse does.
        if (result.diagnostics.length > 0) return this.whole(tokens, end);
        known = { statements: result.ast.body, offset: first.startOffset, line: first.startLine ?? 1 };
        parsed++;
      }
      this.chunks.set(key, known);
      body.push(...moved(known.statements, first.startOffset - known.offset, (first.startLine ?? 1) - known.line));
    }
    this.lastReuse = { reused, parsed, whole: false };
    return { ast: { kind: 'Program', body, loc: { ...EMPTY_SPAN, endLine: end.line, endColumn: end.column, end: end.offset } }, diagnostics: [] };
  }

  private whole(tokens: IToken[], end: EndOfInput): ParseResult {
    this.chunks = new Map();
    this.lastReuse = { reused: 0, parsed: 0, whole: true };
    return parseTokens(tokens, end);
  }
}

/** [from, to) token ranges of the top-level chunks. */
function chunksOf(tokens: readonly IToken[]): { from: number; to: number }[] {
  const chunks: { from: number; to: number }[] = [];
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
  const tok = tokens[i];
  const before = tokens[i - 1]?.tokenType.name;
  if (tok === undefined || (before !== 'Semicolon' && before !== 'RightBrace')) return false;
  if (DECLARATION_STARTS.has(tok.image)) return true;
  // `spell` is a name in plain Lox: a declaration only as `spell name(`.
  return tok.image === 'spell' && tokens[i + 1]?.tokenType.name === 'Identifier' && tokens[i + 2]?.tokenType.name === 'LeftParen';
}

/** Statements parsed at another place, moved `offset` characters and `lines` lines (columns stay: the chunk starts at the same column). */
function moved(statements: readonly A.Stmt[], offset: number, lines: number): readonly A.Stmt[] {
  if (offset === 0 && lines === 0) return statements;
  return statements.map((s) => shift(s, offset, lines) as A.Stmt);
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
