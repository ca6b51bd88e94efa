/**
 * The TextMate grammar, tokenized as VS Code tokenizes it (vscode-textmate +
 * vscode-oniguruma): it agrees with the compiler's own lexer on every token
 * of every spell in the repository, handles the tricky cases by name, and
 * the committed files are what the generator makes today.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IGrammar } from 'vscode-textmate';
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenize } from '../../../compiler/lexer.js';
import type { TokenKind } from '../../../compiler/tokens.js';
import { CONTEXTUAL_KEYWORDS, KEYWORDS, operatorTexts } from '../../../compiler/lexicon.js';
import { cantripMonarch } from '../../../playground/src/language/monarch.js';
import { builtinHostNames, generatedFiles, GRAMMAR_PATH } from './generated-files.js';
import { SCOPE_NAME, textMateGrammar } from './textmate.js';
import { loadGrammar, tokenizeSource, type ScopedToken } from './textmate-tokens.test-helper.js';

const extensionDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(extensionDir, '../..');

const CONTEXTUAL: ReadonlySet<string> = new Set(CONTEXTUAL_KEYWORDS);

let grammar: IGrammar;
beforeAll(async () => {
  grammar = await loadGrammar(readFileSync(join(extensionDir, GRAMMAR_PATH), 'utf8'), SCOPE_NAME);
});

/** What the compiler would call a token with these scopes (innermost scope that says). */
function kindOfScopes(scopes: readonly string[]): TokenKind | null {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const s = scopes[i]!;
    if (/^(punctuation\.definition|meta\.template|meta\.embedded|source)\./.test(s)) continue;
    if (s.startsWith('comment.')) return 'comment';
    if (s.startsWith('string.')) return 'string';
    if (s.startsWith('constant.numeric.')) return 'number';
    if (/^(constant\.language|storage\.type|keyword\.control|keyword\.other|keyword\.operator\.word|variable\.language)\./.test(s)) return 'keyword';
    if (s.startsWith('keyword.operator.')) return 'operator';
    if (/^(meta\.brace|punctuation)\./.test(s)) return 'punctuation';
    if (/^(variable|entity|support\.function)\./.test(s)) return 'identifier';
  }
  return null;
}

/** Every place where the grammar's reading of a compiler token differs from the compiler's. */
function disagreements(source: string, name: string): string[] {
  const scoped = tokenizeSource(grammar, source);
  const out: string[] = [];
  let i = 0;
  for (const tok of tokenize(source)) {
    if (tok.kind === 'error' || tok.kind === 'whitespace') continue;
    // `in` and `spell` are names wherever the spell grammar does not ask for the keyword (`obj.spell`).
    const kinds: readonly (TokenKind | null)[] = CONTEXTUAL.has(tok.image) ? ['keyword', 'identifier'] : [tok.kind];
    while (i < scoped.length && scoped[i]!.end <= tok.start) i++;
    for (let j = i; j < scoped.length && scoped[j]!.start < tok.end; j++) {
      const tm = scoped[j]!;
      const kind = kindOfScopes(tm.scopes);
      if (!kinds.includes(kind)) {
        out.push(`${name}:${tok.line}:${tok.column} '${tm.text}' in ${tok.type} '${tok.image}': compiler ${tok.kind}, grammar ${kind} (${tm.scopes.join(' ')})`);
      }
    }
  }
  return out;
}

function spellFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return spellFiles(path);
    return entry.endsWith('.spell') ? [path] : [];
  });
}

/** The innermost scope of the grammar token that covers `text` (its first occurrence after `after`). */
function scopeOf(tokens: readonly ScopedToken[], source: string, text: string, after = ''): string {
  const from = after === '' ? 0 : source.indexOf(after);
  if (from < 0) throw new Error(`'${after}' not in source`);
  const at = source.indexOf(text, from + after.length);
  if (at < 0) throw new Error(`'${text}' not in source after '${after}'`);
  const covering = tokens.filter((t) => t.start < at + text.length && t.end > at);
  const scopes = new Set(covering.map((t) => t.scopes.at(-1)!));
  if (scopes.size !== 1) throw new Error(`'${text}' spans tokens with scopes ${[...scopes].join(', ')}`);
  return [...scopes][0]!;
}

function scopesOf(source: string): (text: string, after?: string) => string {
  const tokens = tokenizeSource(grammar, source);
  return (text, after) => scopeOf(tokens, source, text, after);
}

describe('the generated editor files', () => {
  it('are committed as the generator makes them today (run `node editors/vscode/build.mjs --generate-only` after a lexicon change)', () => {
    for (const file of generatedFiles()) {
      expect(readFileSync(join(extensionDir, file.path), 'utf8'), file.path).toBe(file.text);
    }
  });

  it('come from the same lists as the lexer and the playground\'s Monarch grammar', () => {
    const monarch = cantripMonarch(builtinHostNames());
    expect([...monarch.keywords].sort()).toEqual([...KEYWORDS]);
    expect([...monarch.operators].sort()).toEqual(operatorTexts().sort());
    const text = JSON.stringify(textMateGrammar(builtinHostNames()));
    for (const word of [...KEYWORDS, ...builtinHostNames()]) expect(text).toContain(`|${word}|`.slice(1, -1));
    for (const name of ['nearby', 'damage', 'wait', 'len', 'clock']) expect(builtinHostNames()).toContain(name);
  });
});

describe('the TextMate grammar against the compiler\'s lexer', () => {
  it('agrees on every token of every spell in spells/', () => {
    const files = spellFiles(join(repoRoot, 'spells'));
    expect(files.length).toBeGreaterThan(5);
    const problems = files.flatMap((f) => disagreements(readFileSync(f, 'utf8'), relative(repoRoot, f)));
    expect(problems).toEqual([]);
  });

  it('agrees on every token of the conformance programs (the book\'s Lox tests and the spell extensions)', () => {
    const files = spellFiles(join(repoRoot, 'tests/conformance'));
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((f) => disagreements(readFileSync(f, 'utf8'), relative(repoRoot, f)));
    expect(problems).toEqual([]);
  });
});

describe('the TextMate grammar on tricky cases', () => {
  it('template strings: text, substitutions, map literals and templates nested inside them', () => {
    const source = 'var s = `a ${ {"k": `b ${x + 1} c`}["k"] } d $ e`;\n';
    expect(disagreements(source, 'template')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('`')).toBe('punctuation.definition.string.begin.cantrip');
    expect(scope('a ')).toBe('string.template.cantrip');
    expect(scope('${')).toBe('punctuation.definition.template-expression.begin.cantrip');
    expect(scope('{', '${ ')).toBe('meta.brace.curly.cantrip');
    expect(scope('k')).toBe('string.quoted.double.cantrip');
    expect(scope('b ')).toBe('string.template.cantrip');
    expect(scope('x')).toBe('variable.other.cantrip');
    expect(scope('1')).toBe('constant.numeric.decimal.cantrip');
    expect(scope(' c')).toBe('string.template.cantrip');
    expect(scope('[')).toBe('meta.brace.square.cantrip');
    // The `}` after `]` closes the outer substitution; what follows is template text again.
    expect(scope(' d $ e')).toBe('string.template.cantrip');
    expect(scope(';')).toBe('punctuation.terminator.statement.cantrip');
  });

  it('template strings that span lines keep their state across lines', () => {
    const source = 'print `one ${\n  n\n} two\nthree`;\nvar after = 1;\n';
    expect(disagreements(source, 'multiline-template')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('n', '${')).toBe('variable.other.cantrip');
    expect(scope('three')).toBe('string.template.cantrip');
    expect(scope('after')).toBe('variable.other.cantrip');
  });

  it('strings have no escapes, may span lines, and hold what looks like comments and substitutions', () => {
    const source = 'var s = "http://x ${y} \\";\nvar t = "one\ntwo";\n';
    expect(disagreements(source, 'strings')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('http://x ${y} \\')).toBe('string.quoted.double.cantrip');
    expect(scope('two')).toBe('string.quoted.double.cantrip');
    expect(scope('var', '\n')).toBe('storage.type.cantrip');
    expect(scope('t', '\nvar ')).toBe('variable.other.cantrip');
  });

  it('comments run to the end of the line, after code too, and hold quotes and backticks', () => {
    const source = 'var a = 4 / 2; // a "quote" and `tick` and ${x}\n// whole line\nprint a;\n';
    expect(disagreements(source, 'comments')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('/')).toBe('keyword.operator.arithmetic.cantrip');
    expect(scope(' a "quote" and `tick` and ${x}')).toBe('comment.line.double-slash.cantrip');
    expect(scope('//')).toBe('punctuation.definition.comment.cantrip');
    expect(scope('print')).toBe('keyword.other.cantrip');
  });

  it('numbers: integers and decimals, but not a leading or trailing dot, nor digits inside a name', () => {
    const source = 'var n = 12.5 + 7 + x1 + .5;\nvar m = 3.foo;\n';
    expect(disagreements(source, 'numbers')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('12.5')).toBe('constant.numeric.decimal.cantrip');
    expect(scope('x1')).toBe('variable.other.cantrip');
    expect(scope('.', 'x1 + ')).toBe('punctuation.accessor.cantrip');
    expect(scope('3')).toBe('constant.numeric.decimal.cantrip');
    expect(scope('foo')).toBe('variable.other.property.cantrip');
  });

  it('keywords by role, and names that merely start with one stay names', () => {
    const source = 'var classy = nil; var fortune = true and false or thisOne; if (iffy) return this; while (nil_value) print super.x;\n';
    expect(disagreements(source, 'keywords')).toEqual([]);
    const scope = scopesOf(source);
    for (const name of ['classy', 'fortune', 'thisOne', 'iffy', 'nil_value']) expect(scope(name)).toBe('variable.other.cantrip');
    expect(scope('nil')).toBe('constant.language.cantrip');
    expect(scope('true')).toBe('constant.language.cantrip');
    expect(scope('and')).toBe('keyword.operator.word.cantrip');
    expect(scope('if')).toBe('keyword.control.cantrip');
    expect(scope('this', 'return ')).toBe('variable.language.cantrip');
    expect(scope('super')).toBe('variable.language.cantrip');
  });

  it('spell, fun and class declarations name what they declare; `spell` and `in` are keywords as the lexer reads them', () => {
    const source = 'spell fireball(caster, target) {\n  for (e in nearby(target, 3)) damage(e, 1);\n}\nfun helper(a) { return a; }\nclass Troll < Monster {\n  init(n) { this.n = n; }\n}\nvar spell = 1;\n';
    expect(disagreements(source, 'declarations')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('spell')).toBe('storage.type.spell.cantrip');
    expect(scope('fireball')).toBe('entity.name.function.spell.cantrip');
    expect(scope('in')).toBe('keyword.control.cantrip');
    expect(scope('fun')).toBe('storage.type.fun.cantrip');
    expect(scope('helper')).toBe('entity.name.function.cantrip');
    expect(scope('Troll')).toBe('entity.name.type.class.cantrip');
    expect(scope('<')).toBe('keyword.operator.inheritance.cantrip');
    expect(scope('Monster')).toBe('entity.other.inherited-class.cantrip');
    expect(scope('init')).toBe('entity.name.function.call.cantrip');
    expect(scope('spell', 'var ')).toBe('storage.type.cantrip');
  });

  it('host functions from the host API table, other calls, methods and properties', () => {
    const source = 'damage(target, caster.wisdom / 2);\nmydamage(1);\nlist.append(sound);\nvar d = distance(a, b);\n';
    expect(disagreements(source, 'calls')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('damage')).toBe('support.function.cantrip');
    expect(scope('wisdom')).toBe('variable.other.property.cantrip');
    expect(scope('mydamage')).toBe('entity.name.function.call.cantrip');
    expect(scope('append')).toBe('entity.name.function.method.cantrip');
    expect(scope('sound')).toBe('support.function.cantrip');
    expect(scope('distance')).toBe('support.function.cantrip');
  });

  it('operators: the longest one wins, compound assignment included', () => {
    const source = 'a += 1; b %= 2; c = a == b; d = a != b; e = a <= b; f = !e; g = -a % 3;\n';
    expect(disagreements(source, 'operators')).toEqual([]);
    const scope = scopesOf(source);
    expect(scope('+=')).toBe('keyword.operator.assignment.cantrip');
    expect(scope('%=')).toBe('keyword.operator.assignment.cantrip');
    expect(scope('==')).toBe('keyword.operator.comparison.cantrip');
    expect(scope('<=')).toBe('keyword.operator.comparison.cantrip');
    expect(scope('!', 'f = ')).toBe('keyword.operator.logical.cantrip');
    expect(scope('%', '-a ')).toBe('keyword.operator.arithmetic.cantrip');
  });

  it('an unterminated string or template runs to the end of the file, as the lexer reads it', () => {
    for (const source of ['var s = "open\nvar t = 1;\n', 'var s = `open ${x}\nvar t = 1;\n']) {
      const tokens = tokenizeSource(grammar, source);
      expect(scopeOf(tokens, source, 't = 1').startsWith('string.')).toBe(true);
    }
  });
});
