import { describe, expect, it } from 'vitest';
import type { Diagnostic } from './diagnostics.js';
import { formatCodeFrame, sourceLine } from './code-frame.js';

function diag(line: number, column: number, endColumn: number, message = 'Expect expression.'): Diagnostic {
  return { severity: 'error', message, line, column, endLine: line, endColumn, token: ';' };
}

describe('formatCodeFrame', () => {
  it('puts carets under the token', () => {
    const source = 'var a = 1;\nprint a +;\n';
    expect(formatCodeFrame('x.spell', source, diag(2, 10, 11))).toBe(
      'x.spell:2:10: error: Expect expression.\n 2 | print a +;\n   |          ^',
    );
  });

  it('underlines the whole token range', () => {
    const source = 'print len(1, 2);';
    expect(formatCodeFrame('x.spell', source, diag(1, 7, 16)).split('\n')[2]).toBe('   |       ^^^^^^^^^');
  });

  it('keeps tabs so the carets line up', () => {
    const source = '\t\tprint ;';
    expect(formatCodeFrame('x.spell', source, diag(1, 9, 10)).split('\n')[2]).toBe('   | \t\t      ^');
  });

  it('shows a window of a very long line', () => {
    const source = `var s = "${'x'.repeat(100_000)}" +;`;
    const column = source.length;
    const frame = formatCodeFrame('x.spell', source, diag(1, column, column + 1));
    expect(frame.length).toBeLessThan(400);
    const [, shown, carets] = frame.split('\n');
    expect(shown!.startsWith(' 1 | …')).toBe(true);
    // The caret sits under the ';'.
    expect(shown![carets!.indexOf('^')]).toBe(';');
  });

  it('widens the gutter for big line numbers', () => {
    const source = 'print 1;\n'.repeat(1000) + 'print ;';
    expect(formatCodeFrame('x.spell', source, diag(1001, 7, 8)).split('\n').slice(1)).toEqual([
      ' 1001 | print ;',
      '      |       ^',
    ]);
  });

  it('prints only the header when the line does not exist', () => {
    expect(formatCodeFrame('x.spell', 'print 1;', diag(5, 1, 2))).toBe('x.spell:5:1: error: Expect expression.');
  });

  it('points after the last character for errors at end of input', () => {
    const source = '{\n  print 1;';
    const d: Diagnostic = { ...diag(2, 11, 11, "Expect '}' after block."), token: null };
    expect(formatCodeFrame('x.spell', source, d).split('\n')[2]).toBe('   |           ^');
  });
});

describe('sourceLine', () => {
  it('drops a carriage return', () => {
    expect(sourceLine('a\r\nb\r\n', 1)).toBe('a');
    expect(sourceLine('a\r\nb\r\n', 2)).toBe('b');
    expect(sourceLine('a', 0)).toBeNull();
  });
});
