import { describe, expect, it } from 'vitest';
import { tokenize } from './lexer.js';
import { KEYWORDS, LOX_KEYWORDS, OPERATORS, PUNCTUATION, operatorTexts } from './lexicon.js';
import { ALL_TOKENS, tokenKind } from './tokens.js';

const namesOfKind = (kind: string) => ALL_TOKENS.filter((t) => tokenKind(t) === kind).map((t) => t.name);

describe('the lexicon is what the lexer lexes', () => {
  it('has one keyword token type per keyword, and no other', () => {
    expect(namesOfKind('keyword').map((n) => n.toLowerCase()).sort()).toEqual([...KEYWORDS]);
    for (const word of KEYWORDS) expect(tokenize(word).map((t) => [t.kind, t.image])).toEqual([['keyword', word]]);
  });

  it('has Lox\'s sixteen reserved words apart from the contextual spell keywords', () => {
    expect(LOX_KEYWORDS).toHaveLength(16);
    expect(KEYWORDS.filter((k) => !LOX_KEYWORDS.includes(k))).toEqual(['in', 'spell']);
  });

  it('has one token type per operator and per punctuation mark, and each lexes whole', () => {
    expect(namesOfKind('operator').sort()).toEqual(Object.keys(OPERATORS).sort());
    expect(namesOfKind('punctuation').sort()).toEqual(Object.keys(PUNCTUATION).sort());
    for (const [name, { text }] of Object.entries(OPERATORS)) expect(tokenize(text).map((t) => t.type)).toEqual([name]);
    for (const [name, text] of Object.entries(PUNCTUATION)) expect(tokenize(text).map((t) => t.type)).toEqual([name]);
  });

  it('lists operators longest first, as an alternation needs them', () => {
    const texts = operatorTexts();
    expect(texts.indexOf('+=')).toBeLessThan(texts.indexOf('+'));
    expect(texts.indexOf('==')).toBeLessThan(texts.indexOf('='));
  });
});
