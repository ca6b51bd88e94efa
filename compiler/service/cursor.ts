/**
 * Where the cursor is, read from the tokens: in a comment, in a string's
 * text, after `object.` (a member is being typed), or in plain code.
 */
import type { IToken } from 'chevrotain';
import type { SpellDocument } from './document.js';
import { lastTokenBefore } from './value-kinds.js';

export type CursorPlace = 'code' | 'string' | 'comment';

export function cursorPlace(doc: SpellDocument, offset: number): CursorPlace {
  const { tokens, comments, errorTokens } = doc.compiled.lexed;
  const comment = comments[lastTokenBefore(comments, offset)];
  if (comment && offset <= end(comment)) return 'comment';
  const tok = tokens[lastTokenBefore(tokens, offset)];
  if (tok && insideText(tok, offset)) return 'string';
  const bad = errorTokens[lastTokenBefore(errorTokens, offset)];
  // An unterminated string runs to the end of the file (or of its line).
  if (bad && bad.tokenType.name.startsWith('Unterminated') && offset <= end(bad)) return 'string';
  return 'code';
}

function end(tok: IToken): number {
  return (tok.endOffset ?? tok.startOffset) + 1;
}

/** Inside the quotes of a string, or the text parts of a template (not its `${ … }`). */
function insideText(tok: IToken, offset: number): boolean {
  const e = end(tok);
  switch (tok.tokenType.name) {
    case 'String':
    case 'TemplateString':
    case 'TemplateTail':
      return offset < e;
    case 'TemplateHead':
    case 'TemplateMiddle':
      return offset < e - 1; // before the `${`
    default:
      return false;
  }
}

export interface MemberAccess {
  /** Offset of the `.`. */
  readonly dot: number;
  /** Where the member name being typed starts (the cursor, when nothing is typed yet). */
  readonly nameStart: number;
}

/** `object.|` or `object.na|`: the dot and the start of the partial name. */
export function memberAccessAt(doc: SpellDocument, offset: number): MemberAccess | null {
  const tokens = doc.compiled.lexed.tokens;
  const i = lastTokenBefore(tokens, offset);
  const tok = tokens[i];
  if (!tok) return null;
  if (tok.tokenType.name === 'Dot') return onlySpaceBetween(doc.source, end(tok), offset) ? { dot: tok.startOffset, nameStart: offset } : null;
  if (tok.tokenType.name === 'Identifier' && offset <= end(tok) && tokens[i - 1]?.tokenType.name === 'Dot') return { dot: tokens[i - 1]!.startOffset, nameStart: tok.startOffset };
  // A keyword typed as a member (`e.is`, `x.in`) lexes as a keyword: still a member name.
  if (/^[a-z]+$/.test(tok.image) && offset <= end(tok) && tokens[i - 1]?.tokenType.name === 'Dot') return { dot: tokens[i - 1]!.startOffset, nameStart: tok.startOffset };
  return null;
}

function onlySpaceBetween(source: string, from: number, to: number): boolean {
  return /^\s*$/.test(source.slice(from, to));
}
