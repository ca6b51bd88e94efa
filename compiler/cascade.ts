/**
 * clox's panic mode, applied after the fact. After an error clox reports
 * nothing more until it resynchronises at a statement boundary (after a ';'
 * or before a statement keyword), so one mistake gives one message. The
 * chevrotain parser and the resolver report everything they find; this
 * filter keeps what clox would have printed: an error is shown only if a
 * boundary lies between it and the previous error shown.
 */

import type { IToken } from 'chevrotain';
import type { Diagnostic } from './diagnostics.js';
import type { EndOfInput } from './parse-errors.js';
import * as T from './tokens.js';


/** Positions as one sortable number (lines stay far below 2^53 / 2^32). */
function key(line: number, column: number): number {
  return line * 0x1_0000_0000 + column;
}

/** Index of the first element >= value. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function suppressCascades(diagnostics: readonly Diagnostic[], tokens: readonly IToken[], end: EndOfInput): Diagnostic[] {
  const semicolons: number[] = [];
  const keywords: number[] = [];
  for (const tok of tokens) {
    if (tok.tokenType === T.Semicolon) semicolons.push(key(tok.startLine ?? 1, tok.startColumn ?? 1));
    else if (T.STATEMENT_KEYWORDS.has(tok.tokenType)) keywords.push(key(tok.startLine ?? 1, tok.startColumn ?? 1));
  }
  const last = tokens.length > 0 ? key(tokens[tokens.length - 1]!.startLine ?? 1, tokens[tokens.length - 1]!.startColumn ?? 1) : -1;
  const position = (d: Diagnostic) => (d.token === null ? key(end.line, end.column) : key(d.line, d.column));
  const kept: Diagnostic[] = [];
  let previous = -1;
  for (const d of diagnostics) {
    if (d.severity !== 'error') {
      kept.push(d);
      continue;
    }
    const at = position(d);
    // clox's block loop keeps parsing statements after an error and resynchronises at the end of
    // each, so an error at the end of the file is shown whenever anything was parsed after the last one.
    const afterMoreTokens = d.token === null && last > previous;
    if (previous === -1 || resynchronised(previous, at) || afterMoreTokens) {
      kept.push(d);
      previous = at;
    }
  }
  return kept;

  /** A ';' in [from, to) or a statement keyword in (from, to]. */
  function resynchronised(from: number, to: number): boolean {
    const s = semicolons[lowerBound(semicolons, from)];
    if (s !== undefined && s < to) return true;
    const k = keywords[lowerBound(keywords, from + 1)];
    return k !== undefined && k <= to;
  }
}
