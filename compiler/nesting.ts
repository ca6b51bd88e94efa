/**
 * The nesting guard. The parser, resolver and emitter are recursive, so a
 * file of 10,000 nested parentheses would overflow the JS stack. Before
 * parsing, one linear scan measures bracket depth (and runs of prefix
 * operators such as `!!!!…`, and of brace-less statement bodies such as
 * `if (a) if (b) …`, which nest just the same) and refuses input
 * past MAX_NESTING with a clean diagnostic at the first token too deep.
 * Whatever still recurses too deeply (a 100,000-term chain of `+`) is caught
 * as a RangeError by compile()'s guard.
 */

import type { IToken } from 'chevrotain';
import * as T from './tokens.js';

/** Most nested brackets / prefix operators / brace-less bodies accepted: well below what overflows Node's default stack (about 370 parentheses, 320 nested functions). */
export const MAX_NESTING = 256;

/** The first token nested deeper than MAX_NESTING, or null. */
export function findTooDeep(tokens: readonly IToken[]): IToken | null {
  let depth = 0;
  let prefixRun = 0;
  // `if (a) while (b) for (;;) …` nests statements without any brace.
  let controlRun = 0;
  for (const tok of tokens) {
    const type = tok.tokenType;
    // A template's head opens a nesting level (`${` … `${` …) and its tail closes it.
    if (type === T.LeftParen || type === T.LeftBracket || type === T.LeftBrace || type === T.TemplateHead) {
      if (++depth + controlRun > MAX_NESTING) return tok;
    } else if (type === T.RightParen || type === T.RightBracket || type === T.RightBrace || type === T.TemplateTail) {
      if (depth > 0) depth--;
    }
    if (type === T.Bang || type === T.Minus) {
      if (++prefixRun + depth + controlRun > MAX_NESTING) return tok;
    } else {
      prefixRun = 0;
    }
    if (type === T.If || type === T.While || type === T.For) {
      if (++controlRun + depth > MAX_NESTING) return tok;
    } else if (type === T.Semicolon || type === T.LeftBrace || type === T.RightBrace) {
      controlRun = 0;
    }
  }
  return null;
}
