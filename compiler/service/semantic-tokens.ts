/**
 * Semantic tokens: what the grammar alone cannot tell — a parameter from a
 * local, a host function from the file's own, a spell, a property, a method
 * call — plus keywords, numbers, strings and comments so an editor without
 * the TextMate grammar still colours everything. Tokens never span lines
 * (LSP clients need not accept multi-line tokens); sorted by offset.
 */
import type { IToken } from 'chevrotain';
import type { SpellDocument } from './document.js';
import type { NameEntry } from './name-index.js';

/** The legend, in the order the numbers refer to. */
export const SEMANTIC_TOKEN_TYPES = ['keyword', 'variable', 'parameter', 'function', 'class', 'property', 'method', 'string', 'number', 'comment'] as const;
export const SEMANTIC_TOKEN_MODIFIERS = ['declaration', 'defaultLibrary', 'spell'] as const;

export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];
export type SemanticTokenModifier = (typeof SEMANTIC_TOKEN_MODIFIERS)[number];

export interface SemanticToken {
  readonly start: number;
  readonly end: number;
  readonly type: SemanticTokenType;
  readonly modifiers: readonly SemanticTokenModifier[];
}

export function semanticTokens(doc: SpellDocument): SemanticToken[] {
  const out: SemanticToken[] = [];
  const named = new Map<number, NameEntry>();
  for (const e of doc.names.entries) named.set(e.id.loc.start, e);
  const { tokens, comments } = doc.compiled.lexed;
  for (const tok of tokens) {
    const entry = named.get(tok.startOffset);
    const classified = entry ? nameToken(entry) : lexicalType(tok);
    if (classified) pushLines(out, doc.source, tok.startOffset, end(tok), classified.type, classified.modifiers);
  }
  for (const c of comments) pushLines(out, doc.source, c.startOffset, end(c), 'comment', []);
  return out.sort((a, b) => a.start - b.start);
}

function end(tok: IToken): number {
  return (tok.endOffset ?? tok.startOffset) + 1;
}

type Classified = { type: SemanticTokenType; modifiers: SemanticTokenModifier[] };

function nameToken(e: NameEntry): Classified | null {
  const declaration: SemanticTokenModifier[] = e.declaration ? ['declaration'] : [];
  if (e.role === 'method') return { type: 'method', modifiers: declaration };
  if (e.role === 'property' || e.role === 'super-method') return { type: e.called || e.role === 'super-method' ? 'method' : 'property', modifiers: [] };
  if (e.host) return { type: 'function', modifiers: ['defaultLibrary'] };
  switch (e.symbol?.kind) {
    case 'parameter':
      return { type: 'parameter', modifiers: declaration };
    case 'function':
      return { type: 'function', modifiers: declaration };
    case 'spell':
      return { type: 'function', modifiers: [...declaration, 'spell'] };
    case 'class':
      return { type: 'class', modifiers: declaration };
    default:
      return { type: 'variable', modifiers: declaration };
  }
}

function lexicalType(tok: IToken): Classified | null {
  const name = tok.tokenType.name;
  if (name === 'Number') return { type: 'number', modifiers: [] };
  if (name === 'String' || name.startsWith('Template')) return { type: 'string', modifiers: [] };
  if (/^[a-z]+$/.test(tok.image) && name !== 'Identifier') return { type: 'keyword', modifiers: [] };
  return null;
}

/** One token per line the text covers. */
function pushLines(out: SemanticToken[], source: string, start: number, stop: number, type: SemanticTokenType, modifiers: readonly SemanticTokenModifier[]): void {
  let s = start;
  while (s < stop) {
    const nl = source.indexOf('\n', s);
    const e = nl === -1 || nl >= stop ? stop : nl;
    if (e > s) out.push({ start: s, end: e, type, modifiers });
    s = e + 1;
  }
}
