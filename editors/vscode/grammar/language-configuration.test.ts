import { describe, expect, it } from 'vitest';
import { languageConfiguration } from './language-configuration.js';

const config = languageConfiguration();
const increase = new RegExp(config.indentationRules.increaseIndentPattern);
const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);

describe('the language configuration', () => {
  it('indents after a line that leaves a bracket open, not after one that closes it or hides it in a string or comment', () => {
    for (const line of ['spell fireball(caster, target) {', '  var targets = [', '  damage(target,', 'if (x) { // the hit', 'class Troll < Monster {']) {
      expect(increase.test(line), line).toBe(true);
    }
    for (const line of ['var m = {"a": 1};', 'var s = "{";', 'var t = `(`;', '// {', 'damage(target, 3);']) {
      expect(increase.test(line), line).toBe(false);
    }
  });

  it('outdents a line that starts with a closing bracket', () => {
    for (const line of ['}', '  ]);', '  ) + 1;']) expect(decrease.test(line), line).toBe(true);
    for (const line of ['x = {}', 'print 1;']) expect(decrease.test(line), line).toBe(false);
  });

  it('has line comments, the three bracket pairs, and closes quotes and backticks outside strings and comments', () => {
    expect(config.comments).toEqual({ lineComment: '//' });
    expect(config.brackets).toEqual([['{', '}'], ['[', ']'], ['(', ')']]);
    expect(config.autoClosingPairs).toContainEqual({ open: '`', close: '`', notIn: ['string', 'comment'] });
    expect(config.autoClosingPairs).toContainEqual({ open: '"', close: '"', notIn: ['string', 'comment'] });
  });

  it('folds on // #region markers and selects names and numbers as words', () => {
    expect(new RegExp(config.folding.markers.start).test('  // #region damage spells')).toBe(true);
    expect(new RegExp(config.folding.markers.end).test('// #endregion')).toBe(true);
    const word = new RegExp(`^(?:${config.wordPattern})$`);
    for (const w of ['fire_ball2', '-12.5', '_x']) expect(word.test(w), w).toBe(true);
    expect(word.test('a.b')).toBe(false);
  });
});
