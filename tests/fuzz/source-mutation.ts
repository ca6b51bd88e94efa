/**
 * fast-check arbitraries for hostile spell source: token soup, raw unicode
 * (lone surrogates, NUL, control characters), and mutations of real files
 * (deletions, duplications, token insertions, deep nesting, splices of two
 * files, truncations).
 */

import fc from 'fast-check';
import type { SourceFile } from './corpus.js';

/** Tokens and fragments of the language, plus things the lexer must refuse. */
export const TOKENS: readonly string[] = [
  // punctuation and operators
  '(', ')', '{', '}', '[', ']', ',', '.', ';', '-', '+', '/', '*', '%', '!', '!=', '=', '==', '>', '>=', '<', '<=',
  '+=', '-=', '*=', '/=', '%=', '"', '//', '/*', '*/', '\n', '\t', ' ',
  // keywords
  'and', 'class', 'else', 'false', 'for', 'fun', 'if', 'nil', 'or', 'print', 'return', 'super', 'this', 'true', 'var',
  'while', 'spell', 'in',
  // identifiers, including JS's special names
  'a', 'x', 'init', 'len', 'str', 'clock', 'damage', 'nearby', 'wait', '__proto__', 'constructor', 'prototype',
  'toString', 'hasOwnProperty', 'valueOf',
  // literals
  '0', '1', '2.5', '1e308', '.5', '5.', '"s"', '"unterminated', '123456789012345678901234567890',
  // characters the language does not have
  '@', '#', '$', '`', '\\', '~', '^', '&', '|', '?', ':', "'", '\0', '\u00e9', '\u{1F600}', '\ud800', '\r',
];

/** A character from the whole UTF-16 range, lone surrogates and control characters included. */
export const anyCodeUnit = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0, max: 0xffff }),
).map((code) => String.fromCharCode(code));

/** Source made of language tokens in random order. */
export const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 120 }).map((tokens) => tokens.join(' '));

/** Source made of arbitrary UTF-16 code units. */
export const unicodeNoise = fc.array(anyCodeUnit, { maxLength: 300 }).map((chars) => chars.join(''));

export type Mutation =
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'duplicate'; readonly at: number; readonly length: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'replace'; readonly at: number; readonly length: number; readonly text: string }
  | { readonly kind: 'nest'; readonly at: number; readonly open: string; readonly depth: number }
  | { readonly kind: 'truncate'; readonly at: number };

const position = fc.nat({ max: 1_000_000 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: position, length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.oneof(fc.constantFrom(...TOKENS), anyCodeUnit) }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: position,
    length: fc.integer({ min: 1, max: 10 }),
    text: fc.constantFrom(...TOKENS),
  }),
  fc.record({
    kind: fc.constant('nest' as const),
    at: position,
    open: fc.constantFrom('(', '{', '[', '!', '-', 'if (true) ', 'while (false) ', 'fun f() {', 'print ', 'return ', 'a.', 'a = '),
    depth: fc.integer({ min: 1, max: 400 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
);

export function applyMutation(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % (text.length + 1);
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'duplicate':
      return text.slice(0, at + m.length) + text.slice(at, at + m.length) + text.slice(at + m.length);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'replace':
      return text.slice(0, at) + m.text + text.slice(at + m.length);
    case 'nest':
      return text.slice(0, at) + m.open.repeat(m.depth) + text.slice(at);
    case 'truncate':
      return text.slice(0, at);
  }
}

/** A real file with a few mutations, or the head of one file spliced onto the tail of another. */
export function mutatedSource(corpus: readonly SourceFile[]): fc.Arbitrary<{ from: string; text: string }> {
  const file = fc.nat({ max: corpus.length - 1 }).map((i) => corpus[i]!);
  const mutated = fc.tuple(file, fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([f, ms]) => ({
    from: f.name,
    text: ms.reduce(applyMutation, f.text),
  }));
  const spliced = fc.tuple(file, file, position, position).map(([a, b, i, j]) => ({
    from: `${a.name} + ${b.name}`,
    text: a.text.slice(0, i % (a.text.length + 1)) + b.text.slice(j % (b.text.length + 1)),
  }));
  return fc.oneof({ arbitrary: mutated, weight: 4 }, { arbitrary: spliced, weight: 1 });
}
