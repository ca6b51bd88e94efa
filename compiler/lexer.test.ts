import { describe, expect, it } from 'vitest';
import { createLexer, lex, tokenize } from './lexer.js';

const types = (source: string) => tokenize(source).map((t) => t.type);

describe('lexer', () => {
  it("passes chevrotain's token checks (skipped when the CLI starts)", () => {
    const validated = createLexer({ validate: true });
    expect(validated.lexerDefinitionErrors).toEqual([]);
    expect(validated.tokenize('spell s(c, t) { print `${c.x}`; }').errors).toEqual([]);
  });

  it("keeps chevrotain's first-character optimisation: every token's possible first characters are known", () => {
    // Lost silently (only a slower lexer) if a token's pattern became one chevrotain cannot analyse without a start_chars_hint.
    const canBeOptimized = (createLexer() as unknown as { canModeBeOptimized: Record<string, boolean> }).canModeBeOptimized;
    expect(canBeOptimized).toEqual({ defaultMode: true });
    // The catch-all, any code unit: one error token per code unit, the BMP's last and lone surrogates included.
    expect(lex('#\u00e9\uffff\ud83d\ude00\udc00').errorTokens.map((t) => t.tokenType.name)).toEqual(Array(6).fill('UnexpectedCharacter'));
  });

  it('reads every token kind with 1-based positions and end columns past the last character', () => {
    const tokens = tokenize('var answer = 4.5;\nprint "hi";');
    expect(tokens.map((t) => [t.type, t.image, t.line, t.column, t.endColumn])).toEqual([
      ['Var', 'var', 1, 1, 4],
      ['Identifier', 'answer', 1, 5, 11],
      ['Equal', '=', 1, 12, 13],
      ['Number', '4.5', 1, 14, 17],
      ['Semicolon', ';', 1, 17, 18],
      ['Print', 'print', 2, 1, 6],
      ['String', '"hi"', 2, 7, 11],
      ['Semicolon', ';', 2, 11, 12],
    ]);
  });

  it('prefers the longest operator and keeps keywords apart from longer identifiers', () => {
    expect(types('a += b -= c == d != e <= f >= g %= h')).toEqual([
      'Identifier', 'PlusEqual', 'Identifier', 'MinusEqual', 'Identifier', 'EqualEqual', 'Identifier',
      'BangEqual', 'Identifier', 'LessEqual', 'Identifier', 'GreaterEqual', 'Identifier', 'PercentEqual', 'Identifier',
    ]);
    expect(types('classy orchid variable in inside spell spells')).toEqual([
      'Identifier', 'Identifier', 'Identifier', 'In', 'Identifier', 'Spell', 'Identifier',
    ]);
  });

  it('reads `123.` as a number then a dot, as Lox does', () => {
    expect(types('123.abs')).toEqual(['Number', 'Dot', 'Identifier']);
  });

  it('keeps comments for tools but not for the parser', () => {
    expect(tokenize('x // note\ny').map((t) => t.kind)).toEqual(['identifier', 'comment', 'identifier']);
    expect(lex('x // note\ny').tokens.map((t) => t.image)).toEqual(['x', 'y']);
  });

  it('counts lines inside multi-line strings', () => {
    const tokens = tokenize('"a\nb\nc" x');
    expect(tokens[1]).toMatchObject({ image: 'x', line: 3 });
  });

  it('turns unexpected characters into clox diagnostics without failing', () => {
    const result = lex('var a = 1 @ 2;\n#');
    expect(result.diagnostics.map((d) => [d.message, d.line, d.column, d.token])).toEqual([
      ['Unexpected character.', 1, 11, ''],
      ['Unexpected character.', 2, 1, ''],
    ]);
    expect(result.tokens.map((t) => t.image)).toEqual(['var', 'a', '=', '1', '2', ';']);
  });

  it('reports an unterminated string on the line where the file ends', () => {
    const result = lex('print "never\nclosed\n');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ message: 'Unterminated string.', line: 3, column: 7, token: '' }),
    ]);
  });

  it('never throws on arbitrary characters, NUL bytes and astral symbols', () => {
    const weird = '\u0000\u0001\uffff\ud83d\ude00\ud800 é ü \t\r\n';
    expect(() => lex(weird)).not.toThrow();
    expect(lex(weird).diagnostics.every((d) => d.message === 'Unexpected character.')).toBe(true);
  });
});
