import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../runtime/host/host-api.js';
import { compile } from './compile.js';
import { formatCodeFrame } from './code-frame.js';

function warnings(source: string): { message: string; line: number; column: number; endLine: number; endColumn: number }[] {
  return compile(source, { hosts: WORLD_HOST_FUNCTIONS })
    .diagnostics.filter((d) => d.severity === 'warning' && d.message.startsWith('Adding a string'))
    .map(({ message, line, column, endLine, endColumn }) => ({ message, line, column, endLine, endColumn }));
}

const RUNTIME = 'Adding a string and a number is an error when it runs ("Operands must be two numbers or two strings."); ';

describe('string + number', () => {
  it('warns with the range of the whole sum and suggests a template string', () => {
    const source = 'spell zap(caster, target) {\n  var dmg = 10 + caster.wisdom / 2;\n  say(caster, "Zap did " + dmg);\n}';
    expect(warnings(source)).toEqual([
      { message: RUNTIME + 'write a template string: `Zap did ${dmg}`', line: 3, column: 15, endLine: 3, endColumn: 31 },
    ]);
    const result = compile(source, { hosts: WORLD_HOST_FUNCTIONS });
    expect(result.module).not.toBeNull();
    const d = result.diagnostics.find((x) => x.message.startsWith('Adding'))!;
    expect(formatCodeFrame('zap.spell', source, d)).toBe(
      'zap.spell:3:15: warning: ' + d.message + '\n 3 |   say(caster, "Zap did " + dmg);\n   |               ^^^^^^^^^^^^^^^^',
    );
  });

  it('turns a whole chain into one template, adding leading numbers first', () => {
    expect(warnings('print "hit " + 3 + " for " + (2 * 4) + " damage";')[0]!.message).toBe(
      RUNTIME + 'write a template string: `hit ${3} for ${(2 * 4)} damage`',
    );
    expect(warnings('print 1 + 2 + "x";')[0]!.message).toBe(RUNTIME + 'write a template string: `${1 + 2}x`');
    expect(warnings('print -1 + "x";')).toHaveLength(1);
    expect(warnings('print `a${1}` + 5 % 2;')).toHaveLength(1);
    expect(warnings('print "left: " + len([1]);')[0]!.message).toBe(RUNTIME + 'write a template string: `left: ${len([1])}`');
    expect(warnings('print str(1) + floor(2.5);')).toHaveLength(1);
  });

  it('knows variables declared once and never assigned', () => {
    expect(warnings('var n = 2 * 3; var s = "x"; print s + n;')).toHaveLength(1);
    expect(warnings('var n = 2; n = "two"; print "x" + n;')).toEqual([]);
    expect(warnings('var n = 2; { var n = "a"; print n + "b"; }')).toEqual([]);
    expect(warnings('fun f(n) { return "x" + n; }')).toEqual([]);
    expect(warnings('var a = b; var b = a; print a + "x";')).toEqual([]);
  });

  it('says nothing where it cannot tell, or where the sum is fine', () => {
    for (const fine of ['print "a" + "b";', 'print 1 + 2;', 'print x + 1;', 'print "a" + x;', 'print "a" + (1 == 2);', 'print "a" + nil;', 'fun str(x) { return 1; } print "a" + str(1);']) {
      expect(warnings(fine), fine).toEqual([]);
    }
  });

  it('leaves out a suggestion a template cannot hold', () => {
    expect(warnings('print "cost: `x`" + 3;')[0]!.message).toBe(RUNTIME + 'write a template string (`…${x}…`) or convert with str().');
  });

  it('warns once per chain, and checks nested chains on their own', () => {
    expect(warnings('print "a" + 1 + 2 + ("b" + 3);')).toHaveLength(2);
  });

  it('copes with a 20,000-term sum', () => {
    expect(warnings(`print "x" + ${Array.from({ length: 20_000 }, () => '1').join(' + ')};`)).toHaveLength(1);
  });
});
