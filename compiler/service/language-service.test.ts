import { describe, expect, it } from 'vitest';
import type { HostFunctionSpec } from '../../vm/host.js';
import {
  AnalysisBudget,
  LanguageService,
  completionsAt,
  declaredSpells,
  definitionAt,
  documentSymbols,
  foldingRanges,
  formatEdits,
  hoverAt,
  prepareRenameAt,
  quickFixes,
  referencesAt,
  renameAt,
  semanticTokens,
  signatureHelpAt,
  type ServiceWorld,
} from './index.js';

const damage: HostFunctionSpec = {
  name: 'damage',
  params: [
    { name: 'target', type: 'entity', doc: 'Who is hit.' },
    { name: 'amount', type: 'number' },
  ],
  returns: 'nil',
  doc: 'Deals damage to an entity.',
};
const particles: HostFunctionSpec = { name: 'particles', params: [{ name: 'kind', type: 'string' }, { name: 'count', type: 'number', optional: true }], returns: 'nil', doc: 'Spawns a particle effect.' };
const nearest: HostFunctionSpec = { name: 'nearest', params: [{ name: 'from', type: 'entity' }], returns: 'entity', doc: 'The nearest entity.' };

const WORLD: ServiceWorld = {
  hosts: [damage, particles, nearest],
  breeds: [
    { name: 'Troll', parent: null, fields: { health: 50, wisdom: 2 } },
    { name: 'TrollArcher', parent: 'Troll', fields: { health: 50, wisdom: 3, range: 8 } },
  ],
  entityProperties: [
    { name: 'x', doc: 'Horizontal position.' },
    { name: 'health', doc: 'Current health.' },
    { name: 'is', doc: 'Breed test.' },
  ],
};

const service = new LanguageService(WORLD);
let n = 0;
/** A document and the offset of the `|` marker in the text (removed). */
function open(text: string) {
  const offset = text.indexOf('|');
  const source = offset === -1 ? text : text.slice(0, offset) + text.slice(offset + 1);
  return { doc: service.document(`test${n++}.spell`, source), offset, source };
}
const labels = (entries: readonly { label: string }[]) => entries.map((e) => e.label);

describe('diagnostics', () => {
  it('reports syntax, resolve, arity and literal-type errors and property warnings with exact ranges', () => {
    const { doc, source } = open('spell s(caster, target) {\n  damage(target);\n  particles(3);\n  print caster.wisdm;\n  var = 1;\n}\n');
    const byMessage = Object.fromEntries(doc.diagnostics.map((d) => [d.message, source.slice(d.start, d.end)]));
    expect(byMessage).toMatchObject({
      "No breed has a property 'wisdm'; did you mean 'wisdom'?": 'wisdm',
      'Argument 1 of particles() must be a string.': '3',
    });
    expect(doc.diagnostics.some((d) => /damage\(\) expects 2 arguments/.test(d.message))).toBe(true);
    expect(doc.diagnostics.some((d) => d.message === 'Expect variable name.')).toBe(true);
  });

  it('never gives an empty range, even at the end of the file', () => {
    const { doc } = open('print 1');
    expect(doc.diagnostics).toHaveLength(1);
    expect(doc.diagnostics[0]!.end).toBeGreaterThan(doc.diagnostics[0]!.start);
  });

  it('keeps the analysis of one version and makes a new one after an edit or a world change', () => {
    const s = new LanguageService(WORLD);
    const a = s.document('a', 'var x = 1;');
    expect(s.document('a', 'var x = 1;')).toBe(a);
    expect(s.document('a', 'var x = 2;')).not.toBe(a);
    const b = s.document('a', 'var x = 2;');
    s.setWorld({ ...WORLD, breeds: [] });
    expect(s.document('a', 'var x = 2;')).not.toBe(b);
  });
});

describe('diagnostics while a line is half typed', () => {
  const spells = (middle: string) =>
    [
      'spell first(caster, target) {',
      '  print caster.wisdm;',
      '}',
      'spell typing(caster) {',
      middle,
      '}',
      'fun helper() {',
      '  damage(1);',
      '  return missing;',
      '}',
      'spell last(caster) {',
      '  print caster.helth;',
      '}',
      '',
    ].join('\n');
  const messages = (doc: { diagnostics: readonly { message: string; severity: string }[] }) => doc.diagnostics.map((d) => `${d.severity}: ${d.message}`);

  for (const middle of ['  caster.', '  var x = caster.', '  if (caster.wis', '  damage(caster, ']) {
    it(`keeps the breed-aware warnings, their quick fixes and the other checks of the parts that parse, beside \`${middle.trim()}\``, () => {
      const source = spells(middle);
      const doc = service.document(`typing-${middle}.spell`, source);
      expect(messages(doc)).toEqual(
        expect.arrayContaining([
          "warning: No breed has a property 'wisdm'; did you mean 'wisdom'?",
          "warning: No breed has a property 'helth'; did you mean 'health'?",
          'error: damage() expects 2 arguments (target, amount) but got 1.',
          "warning: Undefined variable 'missing'.",
        ]),
      );
      expect(doc.diagnostics.filter((d) => d.severity === 'error' && !/damage\(\)/.test(d.message))).toHaveLength(1);
      const fixes = quickFixes(doc, 0, source.length).map((f) => [f.title, source.slice(f.edit.start, f.edit.end)]);
      expect(fixes).toEqual([
        ["Change to 'wisdom'", 'wisdm'],
        ["Change to 'health'", 'helth'],
      ]);
    });
  }

  it('keeps the declarations after one whose closing brace is not typed yet', () => {
    const source = spells('  if (caster.wisdom > 1) {\n    print caster.wisdm;').replace('}\nfun helper', '\nfun helper');
    const doc = service.document('open-brace.spell', source);
    expect(messages(doc)).toEqual(
      expect.arrayContaining(["warning: No breed has a property 'helth'; did you mean 'health'?", 'error: damage() expects 2 arguments (target, amount) but got 1.', "error: Expect '}' after block."]),
    );
    expect(messages(doc).filter((m) => m.includes("'wisdm'"))).toHaveLength(2);
  });
});

describe('what the service keeps', () => {
  it('drops the least recently used analyses past its budget, across services, and analyses them again when asked', () => {
    const dropped: number[] = [];
    const budget = new AnalysisBudget(100, (source) => dropped.push(source));
    const one = new LanguageService(WORLD, { budget });
    const two = new LanguageService(WORLD, { budget });
    const text = (name: string) => `spell ${name}(caster) {\n  print caster.wisdm;\n}\n`.padEnd(45, ' ');
    const a = one.document('a', text('a'));
    two.document('b', text('b'));
    expect(one.document('a', text('a'))).toBe(a);
    two.document('c', text('c'));
    // a was used after b: b goes.
    expect(one.cached('a')).toBe(a);
    expect(two.cached('b')).toBeUndefined();
    expect(budget.keptSource).toBe(90);
    expect(dropped).toEqual([45]);
    const again = two.document('b', text('b'));
    expect(again.diagnostics.map((d) => d.suggestion)).toEqual(['wisdom']);
    expect(two.cached('c')).toBeDefined();
    expect(one.cached('a')).toBeUndefined();
    // A file larger than the whole budget is still analysed (the newest is always kept).
    const big = one.document('big', text('big').repeat(4));
    expect(big.diagnostics.filter((d) => d.suggestion === 'wisdom')).toHaveLength(4);
    expect(budget.keptSource).toBe(180);
    one.forgetAll();
    expect(budget.keptSource).toBe(0);
  });

  it('refuses to format a file over the size it formats, saying so', () => {
    const doc = service.document('huge.spell', 'print 1;\n'.repeat(150_000));
    const result = formatEdits(doc, 2);
    expect(result).toEqual({ ok: false, message: 'This file is 1.3 MB; the editor formats files up to 1.0 MB (run `cantrip fmt` on it).' });
  });
});

describe('completion', () => {
  it('offers keywords, locals, upvalues, module functions, classes, spells and host functions with snippets', () => {
    const { doc, offset } = open('fun helper(a) {}\nclass Rune {}\nspell zap(caster, target) {\n  var dmg = 1;\n  fun inner() {\n    |\n  }\n}\n');
    const entries = completionsAt(doc, offset);
    expect(labels(entries)).toEqual(expect.arrayContaining(['while', 'helper', 'Rune', 'zap', 'dmg', 'caster', 'inner', 'damage']));
    expect(entries.find((e) => e.label === 'dmg')!.detail).toContain('captured from zap');
    expect(entries.find((e) => e.label === 'damage')).toMatchObject({ kind: 'host', isSnippet: true, insertText: 'damage(${1:target}, ${2:amount})', detail: 'damage(target: entity, amount: number) -> nil' });
  });

  it('leaves out locals not yet declared or out of scope', () => {
    const { doc, offset } = open('spell s(c) {\n  { var hidden = 1; }\n  |\n  var later = 2;\n}\n');
    const names = labels(completionsAt(doc, offset));
    expect(names).not.toContain('hidden');
    expect(names).not.toContain('later');
    expect(names).toContain('c');
  });

  it('offers entity properties from the breeds after a dot on a caster or target, and no string, list or map methods', () => {
    const { doc, offset } = open('spell s(caster, target) {\n  var t = target.|\n}\n');
    const names = labels(completionsAt(doc, offset));
    expect(names).toEqual(expect.arrayContaining(['x', 'health', 'wisdom', 'range', 'is']));
    expect(names).not.toContain('push');
    expect(names).not.toContain('upper');
    expect(names).not.toContain('while');
  });

  it('offers string, list and map methods only on values known to be of that kind', () => {
    const list = open('var xs = [1, 2];\nxs.|');
    expect(labels(completionsAt(list.doc, list.offset))).toContain('append');
    expect(labels(completionsAt(list.doc, list.offset))).not.toContain('wisdom');
    const str = open('var s = "abc";\nprint s.up|');
    expect(labels(completionsAt(str.doc, str.offset))).toContain('upper');
    expect(labels(completionsAt(str.doc, str.offset))).not.toContain('push');
    const map = open('var m = {"a": 1};\nm.|');
    expect(labels(completionsAt(map.doc, map.offset))).toContain('keys');
    const reassigned = open('var s = "abc";\ns = 3;\ns.|');
    expect(labels(completionsAt(reassigned.doc, reassigned.offset))).not.toContain('upper');
  });

  it("offers an instance's methods and fields, and a host call's result by its declared type", () => {
    const inst = open('class A { init() { this.power = 1; } boost() {} }\nclass B < A { zap() {} }\nvar b = B();\nb.|');
    expect(labels(completionsAt(inst.doc, inst.offset))).toEqual(expect.arrayContaining(['boost', 'zap', 'power']));
    const host = open('spell s(caster) {\n  nearest(caster).|\n}');
    expect(labels(completionsAt(host.doc, host.offset))).toContain('wisdom');
  });

  it('offers breed names inside strings and nothing inside comments', () => {
    const str = open('spell s(c) { c.is("Tr|"); }');
    expect(labels(completionsAt(str.doc, str.offset))).toEqual(['Troll', 'TrollArcher']);
    const comment = open('// dam|');
    expect(completionsAt(comment.doc, comment.offset)).toEqual([]);
  });
});

describe('hover', () => {
  it('shows a host function, a breed property with the breeds that define it, a declaration and a keyword', () => {
    const text = 'spell fireball(caster, target) {\n  var dmg = 10 + caster.wisdom;\n  damage(target, dmg);\n  while (false) {}\n}\n';
    const { doc, source } = open(text);
    const at = (needle: string, skip = 0) => source.indexOf(needle) + skip;
    expect(hoverAt(doc, at('damage(') + 1)!.contents.join('\n')).toContain('damage(target: entity, amount: number) -> nil');
    const prop = hoverAt(doc, at('wisdom'))!;
    expect(prop.contents.join('\n')).toMatch(/Troll = `2`[\s\S]*TrollArcher = `3`/);
    expect(source.slice(prop.start, prop.end)).toBe('wisdom');
    expect(hoverAt(doc, at('dmg);'))!.contents.join('\n')).toContain('var dmg = 10 + caster.wisdom;');
    expect(hoverAt(doc, at('caster.'))!.contents.join('\n')).toContain('parameter of spell fireball');
    expect(hoverAt(doc, at('while'))!.contents[0]).toContain('keyword');
  });

  it('is empty in comments and past the end', () => {
    const { doc, source } = open('// damage\n');
    expect(hoverAt(doc, 4)).toBeNull();
    expect(hoverAt(doc, source.length + 100)).toBeNull();
  });
});

describe('signature help', () => {
  it('shows the host signature and the active argument', () => {
    const { doc, offset } = open('damage(a, |');
    expect(signatureHelpAt(doc, offset)).toMatchObject({ label: 'damage(target: entity, amount: number) -> nil', activeParameter: 1 });
  });

  it("shows the file's own function, which shadows a host function", () => {
    const { doc, offset } = open('fun damage(x, y, z) {}\ndamage(1, |');
    expect(signatureHelpAt(doc, offset)).toMatchObject({ label: 'damage(x, y, z)', activeParameter: 1 });
  });
});

describe('definition, references, rename', () => {
  const text = 'var hp = 3;\nfun heal(amount) {\n  var hp = amount;\n  fun inner() { return hp; }\n  return hp;\n}\nprint hp;\n';

  it('follow the resolver: a captured local, not the global of the same name', () => {
    const { doc, source } = open(text);
    const inner = source.indexOf('return hp') + 'return '.length;
    const local = source.indexOf('var hp = amount') + 4;
    expect(definitionAt(doc, inner)).toEqual([{ start: local, end: local + 2 }]);
    const refs = referencesAt(doc, inner).map((r) => r.start);
    expect(refs).toHaveLength(3);
    expect(refs).not.toContain(source.indexOf('print hp') + 6);
  });

  it('rename edits every use of that symbol only', () => {
    const { doc, source } = open(text);
    const result = renameAt(doc, source.indexOf('print hp') + 6, 'health');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    let renamed = source;
    for (const e of [...result.edits].sort((a, b) => b.start - a.start)) renamed = renamed.slice(0, e.start) + e.newText + renamed.slice(e.end);
    expect(renamed).toBe(text.replace('var hp = 3', 'var health = 3').replace('print hp', 'print health'));
  });

  it('refuses host functions, keywords, bad names and clashes', () => {
    const { doc, source } = open('spell s(caster) { damage(caster, 1); var other = 1; while (true) {} }');
    expect(prepareRenameAt(doc, source.indexOf('damage'))).toMatchObject({ ok: false, message: expect.stringContaining('host function') });
    expect(prepareRenameAt(doc, source.indexOf('while') + 1)).toMatchObject({ ok: false, message: expect.stringContaining('keyword') });
    expect(prepareRenameAt(doc, source.indexOf('caster)'))).toMatchObject({ ok: true, placeholder: 'caster' });
    expect(renameAt(doc, source.indexOf('caster)'), 'while')).toMatchObject({ ok: false });
    expect(renameAt(doc, source.indexOf('caster)'), '1x')).toMatchObject({ ok: false });
    expect(renameAt(doc, source.indexOf('caster)'), 'other')).toMatchObject({ ok: false });
    expect(renameAt(doc, source.indexOf('caster)'), 'nearest')).toMatchObject({ ok: false });
  });
});

describe('symbols, tokens, folding, quick fixes', () => {
  it('lists spells, functions, classes with methods and variables', () => {
    const { doc } = open('var a = 1;\nspell zap(c, t) {}\nclass Rune < Base { boost() {} }\nfun f() {}\n');
    expect(documentSymbols(doc).map((s) => [s.name, s.kind, s.children.map((c) => c.name)])).toEqual([
      ['a', 'variable', []],
      ['zap', 'spell', []],
      ['Rune', 'class', ['boost']],
      ['f', 'function', []],
    ]);
    const workspace = new LanguageService(WORLD);
    workspace.document('one.spell', 'spell fireball(c, t) {}');
    workspace.document('two.spell', 'spell frostbolt(c, t) {}');
    expect(workspace.workspaceSymbols('fb').map((s) => [s.uri, s.symbol.name])).toEqual([
      ['one.spell', 'fireball'],
      ['two.spell', 'frostbolt'],
    ]);
  });

  it('classifies parameters, host functions, spells, properties and methods', () => {
    const { doc, source } = open('spell zap(caster) {\n  damage(caster, caster.health);\n  var xs = [];\n  xs.append(1);\n}\n');
    const tokens = semanticTokens(doc).map((t) => [source.slice(t.start, t.end), t.type, t.modifiers.join(',')]);
    expect(tokens).toEqual(
      expect.arrayContaining([
        ['zap', 'function', 'declaration,spell'],
        ['caster', 'parameter', 'declaration'],
        ['damage', 'function', 'defaultLibrary'],
        ['health', 'property', ''],
        ['append', 'method', ''],
        ['spell', 'keyword', ''],
      ]),
    );
  });

  it('folds multi-line functions, blocks and comment runs', () => {
    const { doc } = open('// one\n// two\nfun f() {\n  if (true) {\n    print 1;\n  }\n}\n');
    expect(foldingRanges(doc)).toEqual([
      { startLine: 1, endLine: 2, kind: 'comment' },
      { startLine: 3, endLine: 6, kind: 'region' },
      { startLine: 4, endLine: 5, kind: 'region' },
    ]);
  });

  it('offers "did you mean" for a misspelt property, variable and host function', () => {
    const { doc, source } = open('spell s(caster) {\n  var power = caster.wisdm;\n  print powr;\n  damge(caster, 1);\n}\n');
    const fixes = quickFixes(doc, 0, source.length).map((f) => [f.title, source.slice(f.edit.start, f.edit.end)]);
    expect(fixes).toEqual([
      ["Change to 'wisdom'", 'wisdm'],
      ["Change to 'power'", 'powr'],
      ["Change to 'damage'", 'damge'],
    ]);
  });

  it('finds declared spells beside syntax errors elsewhere', () => {
    expect(declaredSpells('spell a(c, t) {}\n// spell b(c, t)\nspell c() { var = ; }\nvar spell = 1;')).toEqual(['a', 'c']);
  });
});

describe('formatting', () => {
  it('formats the whole document in one edit, does nothing to formatted text and refuses syntax errors', () => {
    const { doc } = open('spell s(c,t){damage(t,1);}');
    const result = formatEdits(doc, 4);
    expect(result).toEqual({ ok: true, edits: [{ start: 0, end: doc.source.length, newText: 'spell s(c, t) {\n    damage(t, 1);\n}\n' }] });
    expect(formatEdits(open('spell s(c, t) {\n  damage(t, 1);\n}\n').doc)).toEqual({ ok: true, edits: [] });
    expect(formatEdits(open('var = ;').doc)).toMatchObject({ ok: false, message: expect.stringContaining('syntax errors') });
  });
});

describe('hostile input', () => {
  it('answers every request on garbage, huge and error-ridden text without throwing', () => {
    const texts = ['\u0000\uFFFD\uD800', '{'.repeat(5000), 'var = ;'.repeat(1000), 'x'.repeat(200_000), 'spell s(c) { c.'];
    for (const text of texts) {
      const doc = service.document('hostile', text);
      for (const offset of [-5, 0, 3, text.length, text.length + 10, Number.NaN]) {
        completionsAt(doc, offset);
        hoverAt(doc, offset);
        signatureHelpAt(doc, offset);
        definitionAt(doc, offset);
        referencesAt(doc, offset);
        prepareRenameAt(doc, offset);
        renameAt(doc, offset, 'y');
      }
      documentSymbols(doc);
      semanticTokens(doc);
      foldingRanges(doc);
      quickFixes(doc, 0, text.length);
      expect(doc.diagnostics.length).toBeGreaterThan(0);
    }
  });
});
