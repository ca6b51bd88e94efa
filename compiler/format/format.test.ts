import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from '../parse.js';
import { formatSource } from './index.js';
import { expectFormatKeepsMeaning } from './same-meaning.test-helper.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function format(source: string, indentWidth?: number): string {
  const result = formatSource(source, indentWidth === undefined ? {} : { indentWidth });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.text;
}

/** Source written as lines, for readable expectations. */
const lines = (...text: string[]) => text.join('\n') + '\n';

function spellFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return spellFiles(full);
      return entry.name.endsWith('.spell') ? [full] : [];
    })
    .sort();
}

describe('formatSource: the style', () => {
  it('puts one statement on a line, spaces around binary operators, none inside brackets', () => {
    expect(format('var   x=1+2*  3;print x ;  x=[ 1,2 ]; y={"a" :1};')).toBe(
      lines('var x = 1 + 2 * 3;', 'print x;', 'x = [1, 2];', 'y = {"a": 1};'),
    );
  });

  it('indents blocks, keeps `} else {` together and `else if` chains flat', () => {
    expect(format('if (a) { print 1; } else if (b) { print 2; } else { print 3; }')).toBe(
      lines('if (a) {', '  print 1;', '} else if (b) {', '  print 2;', '} else {', '  print 3;', '}'),
    );
  });

  it('keeps a brace-less body on its line, and puts `else` after it on the next', () => {
    expect(format('if (a)\n  print 1;\nelse print 2; while (x) x -= 1;')).toBe(
      lines('if (a) print 1;', 'else print 2;', 'while (x) x -= 1;'),
    );
  });

  it('formats functions, spells, classes and every kind of for loop', () => {
    const source =
      'fun add(a,b){return a+b;} spell zap ( caster , target ) { damage(target,1); }\n' +
      'class B < A { init(x) { super.init(x); this.x = x; } get() { return this.x; } }\n' +
      'for(var i=0;i<3;i=i+1) print i; for(;;) {} for (; i < 3;) i += 1; for (var e in [1]) print e; for (e in l) {}';
    expect(format(source)).toBe(
      lines(
        'fun add(a, b) {',
        '  return a + b;',
        '}',
        'spell zap(caster, target) {',
        '  damage(target, 1);',
        '}',
        'class B < A {',
        '  init(x) {',
        '    super.init(x);',
        '    this.x = x;',
        '  }',
        '  get() {',
        '    return this.x;',
        '  }',
        '}',
        'for (var i = 0; i < 3; i = i + 1) print i;',
        'for (;;) {}',
        'for (; i < 3;) i += 1;',
        'for (var e in [1]) print e;',
        'for (e in l) {}',
      ),
    );
  });

  it('honours the indent width', () => {
    expect(format('{ if (a) { b(); } }', 4)).toBe(lines('{', '    if (a) {', '        b();', '    }', '}'));
  });

  it('keeps at most one empty line between statements, none at the start or end of a block', () => {
    expect(format('a();\n\n\n\nb();\n{\n\n  c();\n\n}\n')).toBe(lines('a();', '', 'b();', '{', '  c();', '}'));
  });

  it('keeps every comment: own-line ones on their lines, trailing ones after one space', () => {
    const source = lines(
      '// header',
      '',
      '',
      'var x = 1;      // trailing',
      '  // before a block',
      'if (x) { // after the brace',
      '  // inside',
      '',
      '  // last in the block',
      '}',
      'print x + // mid-expression',
      '  2;',
      '// at the end',
    );
    expect(format(source)).toBe(
      lines(
        '// header',
        '',
        'var x = 1; // trailing',
        '// before a block',
        'if (x) { // after the brace',
        '  // inside',
        '',
        '  // last in the block',
        '}',
        'print x + // mid-expression',
        '  2;',
        '// at the end',
      ),
    );
  });

  it('keeps comments inside brackets inside them', () => {
    expect(format('f(1, // one\n2);\nvar l = [\n  1\n  // end of list\n];')).toBe(
      lines('f(', '  1, // one', '  2', ');', 'var l = [', '  1', '  // end of list', '];'),
    );
  });

  it('keeps strings, template strings and numbers exactly as written', () => {
    const source = 'print "a  b\n  c";\nprint `x ${ 1+2 }  ${"y"}`;\nprint 1.50 + 007;\n';
    expect(format(source)).toBe('print "a  b\n  c";\nprint `x ${1 + 2}  ${"y"}`;\nprint 1.50 + 007;\n');
  });

  it('breaks a call, list or map that does not fit in 100 columns one element per line', () => {
    const long = `particles(${Array.from({ length: 12 }, (_, i) => `"effect${i}"`).join(', ')});`;
    expect(format(long)).toBe(lines('particles(', ...Array.from({ length: 12 }, (_, i) => `  "effect${i}"${i < 11 ? ',' : ''}`), ');'));
    const fits = `print [${Array.from({ length: 10 }, (_, i) => i).join(', ')}];`;
    expect(format(fits)).toBe(fits + '\n');
  });

  it('lets a trailing comment run past the width rather than break the code before it', () => {
    const source = `damage(target, 1); // ${'x'.repeat(100)}\n`;
    expect(format(source)).toBe(source);
  });

  it('never breaks inside a template string substitution', () => {
    const call = `f(${Array.from({ length: 12 }, (_, i) => `"argument${i}"`).join(', ')})`;
    const source = `print \`total: \${${call}}\`;`;
    expect(format(source)).toBe(source + '\n');
  });

  it('breaks a chain of operators that does not fit after each operator, indenting the rest', () => {
    const terms = Array.from({ length: 14 }, (_, i) => `value${i}`);
    expect(format(`var total = ${terms.join(' + ')};`)).toBe(
      lines('var total = value0 +', ...terms.slice(1).map((t, i) => `  ${t}${i < terms.length - 2 ? ' +' : ';'}`)),
    );
    expect(format(`var small = (a + b) * c - d / e;`)).toBe('var small = (a + b) * c - d / e;\n');
  });

  it('turns CRLF line ends into LF and ends the file with one newline', () => {
    expect(format('var a = 1; // x\r\n\r\nprint a;\r\n\r\n\r\n')).toBe(lines('var a = 1; // x', '', 'print a;'));
    expect(format('')).toBe('');
    expect(format('  \n\n')).toBe('');
    expect(format('// only a comment')).toBe('// only a comment\n');
  });

  it('refuses text with syntax errors, with the parser diagnostics', () => {
    const result = formatSource('print 1\nprint 2;');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostics).toEqual(parse('print 1\nprint 2;').diagnostics);
  });

  it('refuses a bad indent width', () => {
    expect(() => formatSource('x;', { indentWidth: 0 })).toThrow(RangeError);
    expect(() => formatSource('x;', { indentWidth: 2.5 })).toThrow(RangeError);
  });

  it('answers deep or huge input without throwing', () => {
    const sum = `print ${Array.from({ length: 20_000 }, () => '1').join(' + ')};`;
    const result = formatSource(sum);
    expect(result.ok).toBe(true);
    const nested = formatSource(`print ${'('.repeat(250)}1${')'.repeat(250)};`);
    expect(nested.ok).toBe(true);
  });
});

describe('formatSource keeps meaning and is idempotent', () => {
  const files = [...spellFiles(path.join(REPO, 'spells')), ...spellFiles(path.join(REPO, 'tests/conformance'))];
  const parseable = files.filter((file) => parse(fs.readFileSync(file, 'utf8')).diagnostics.every((d) => d.severity !== 'error'));

  it('finds the example spells and conformance programs', () => {
    expect(parseable.length).toBeGreaterThan(200);
  });

  it.each(parseable.map((file) => [path.relative(REPO, file), file]))('%s', (_name, file) => {
    expectFormatKeepsMeaning(fs.readFileSync(file, 'utf8'), file);
  });
});

describe('spells/', () => {
  it.each(spellFiles(path.join(REPO, 'spells')).map((file) => [path.relative(REPO, file), file]))('%s is formatted (cantrip fmt --write)', (_name, file) => {
    const source = fs.readFileSync(file, 'utf8');
    expect(format(source)).toBe(source);
  });
});
