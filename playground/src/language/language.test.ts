import { describe, expect, it } from 'vitest';
import type { HostFunctionSpec } from '../../../vm/host.js';
import type { Module } from '../../../vm/module.js';
import { Op } from '../../../vm/opcodes.js';
import { LineInstructionMap, buildListing, colourIndexForLine, rowText } from './bytecodeMap.js';
import { LanguageService } from '../../../compiler/service/index.js';
import { locatePath, readJson } from './jsonLocations.js';
import { markerForLine, markersFromDiagnostics } from './markers.js';
import { cantripMonarch } from './monarch.js';
import { markerForBreedProblem } from './breedsMarkers.js';
import { keepKnownSpells, libraryFilesFor } from './worldSetup.js';
import { decodeStateFromHash, encodeStateToHash, shareUrl } from './urlState.js';

const damage: HostFunctionSpec = {
  name: 'damage',
  params: [
    { name: 'target', type: 'entity' },
    { name: 'amount', type: 'number' },
  ],
  returns: 'nil',
  doc: 'Deals damage to an entity.',
};
describe('markers from diagnostics', () => {
  it("put the language service's ranges on Monaco's 1-based lines and columns", () => {
    const doc = new LanguageService({ hosts: [damage], breeds: [], entityProperties: [] }).document('m', 'var a = 1;\nprint a +;\nprint b');
    expect(markersFromDiagnostics(doc.diagnostics, doc.lines).map((m) => [m.severity, m.startLineNumber, m.startColumn, m.endLineNumber, m.endColumn])).toEqual([
      ['error', 2, 10, 2, 11],
      // "Expect ';'" at the end of the file underlines the last character, not nothing.
      ['error', 3, 7, 3, 8],
    ]);
  });

  it('underlines the trimmed line of a runtime error', () => {
    const m = markerForLine('Operands must be numbers.', 2, '\n   print a + nil;   \n', 'runtime');
    expect([m.startLineNumber, m.startColumn, m.endColumn]).toEqual([2, 4, 18]);
  });
});

describe('bytecode listing', () => {
  const fn = (name: string, kind: 'script' | 'spell', code: number[], lines: number[]) => ({
    name, kind, arity: 0, upvalues: [], code: Int32Array.from(code), lines: Int32Array.from(lines), maxStack: 4, locals: [],
  });
  const module: Module = {
    constants: [1.5, 'hello'],
    globals: ['greet'],
    hostImports: [],
    spells: [{ name: 'greet', functionIndex: 1 }],
    sourceName: 'test',
    functions: [
      fn('', 'script', [Op.CLOSURE, 1, Op.DEFINE_GLOBAL, 0, Op.NIL, Op.RETURN], [1, 1, 3, 3, 3, 3]),
      fn('greet', 'spell', [Op.CONSTANT, 1, Op.PRINT, Op.CONSTANT, 0, Op.PRINT, Op.NIL, Op.RETURN], [2, 2, 2, 2, 2, 2, 3, 3]),
    ],
  };

  it('lists every function with a header and one row per instruction', () => {
    const rows = buildListing(module);
    expect(rows.map((r) => rowText(module, r))).toEqual([
      '== <script> ==',
      expect.stringMatching(/^0000  CLOSURE/),
      expect.stringMatching(/^0002  DEFINE_GLOBAL/),
      '0004  NIL',
      '0005  RETURN',
      '== <spell greet> ==',
      expect.stringMatching(/^0000  CONSTANT .*'hello'/),
      '0002  PRINT',
      expect.stringMatching(/^0003  CONSTANT .*'1.5'/),
      '0005  PRINT',
      '0006  NIL',
      '0007  RETURN',
    ]);
  });

  it('maps source lines to rows and back', () => {
    const map = new LineInstructionMap(buildListing(module));
    expect(map.rowsForLine(2)).toEqual([6, 7, 8, 9]);
    expect(map.rowsForLine(3)).toEqual([2, 3, 4, 10, 11]);
    expect(map.rowsForLine(7)).toEqual([]);
    expect(map.lineForRow(6)).toBe(2);
    expect(map.lineForRow(0)).toBeNull();
    expect(map.rowFor(1, 3)).toBe(8);
    // An operand word (an outer frame's pc is its call's last word) belongs to its instruction's row.
    // (offset 4 is the operand of row 8's CONSTANT at 0003.)
    expect(map.rowFor(1, 4)).toBe(8);
    expect(map.linesWithCode()).toEqual([1, 2, 3]);
  });

  it('gives neighbouring lines different colours', () => {
    expect(colourIndexForLine(2, 6)).not.toBe(colourIndexForLine(3, 6));
    expect(colourIndexForLine(8, 6)).toBe(colourIndexForLine(2, 6));
  });
});

describe('URL state', () => {
  it('round-trips source and breeds through the hash', () => {
    const state = { source: 'spell f(c, t) { print "ünïcode ✨"; }\n', breeds: '{"troll": {}}' };
    const hash = encodeStateToHash(state);
    expect(hash).toMatch(/^#code\/[A-Za-z0-9+\-$]+$/);
    expect(decodeStateFromHash(hash)).toEqual(state);
    expect(decodeStateFromHash(encodeStateToHash({ source: 'x' }))).toEqual({ source: 'x' });
    expect(shareUrl('http://h/p/#old', { source: 'x' })).toBe('http://h/p/' + encodeStateToHash({ source: 'x' }));
  });

  it('ignores foreign or corrupted hashes', () => {
    expect(decodeStateFromHash('')).toBeNull();
    expect(decodeStateFromHash('#section')).toBeNull();
    expect(decodeStateFromHash('#code/%%%garbage')).toBeNull();
  });
});

describe('JSON locations', () => {
  const text = '{\n  "troll": {\n    "health": 50\n  },\n  "archer": { "parent": "trol" }\n}';
  it('locates keys by path, falling back to the nearest existing parent', () => {
    const r = readJson(text);
    if (!r.ok) throw new Error(r.message);
    expect(locatePath(r.spans, ['troll', 'health'])).toMatchObject({ line: 3, column: 5 });
    expect(locatePath(r.spans, ['archer', 'parent'])).toMatchObject({ line: 5, column: 15 });
    expect(locatePath(r.spans, ['troll', 'missing'])).toMatchObject({ line: 2, column: 3 });
  });

  it('reports syntax errors with their line and column', () => {
    const r = readJson('{\n  "troll": {\n    "health": 50,\n  }\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.span).toMatchObject({ line: 4, column: 3 });
    const r2 = readJson('{"a": 1} x');
    expect(r2.ok).toBe(false);
  });
});

describe('monarch grammar', () => {
  it('knows the keywords and the host functions it is given', () => {
    const g = cantripMonarch(['damage']);
    expect(g.keywords).toEqual(expect.arrayContaining(['spell', 'in', 'fun', 'while']));
    expect(g.hostFunctions).toEqual(['damage']);
  });
});

describe('breeds markers', () => {
  const text = '{\n  "breeds": [\n    { "name": "Troll", "health": 25 },\n    {\n      "name": "Archer",\n      "parent": "Trol",\n      "spells": { "attack": "nope" }\n    }\n  ]\n}';
  it('puts a validation error on the field it names', () => {
    const m = markerForBreedProblem(text, { message: "unknown parent 'Trol'", breed: 'Archer', field: 'parent', line: null, column: null });
    expect([m.startLineNumber, m.startColumn]).toEqual([6, 7]);
    const nested = markerForBreedProblem(text, { message: 'x', breed: 'Archer', field: 'spells.attack', line: null, column: null });
    expect(nested.startLineNumber).toBe(7);
    const whole = markerForBreedProblem(text, { message: 'x', breed: 'Troll', field: null, line: null, column: null });
    expect(whole.startLineNumber).toBe(3);
  });

  it('uses the position of a syntax error', () => {
    const m = markerForBreedProblem('{\n  "breeds": [,]\n}', { message: 'syntax', breed: null, field: null, line: 2, column: 14 });
    expect([m.startLineNumber, m.startColumn]).toEqual([2, 14]);
  });
});

describe('world setup', () => {
  const library = [
    { name: 'fireball', source: '', spells: ['fireball'] },
    { name: 'trolls', source: '', spells: ['trollAttack', 'wander'] },
    { name: 'hello', source: '', spells: [] },
    { name: 'copy', source: '', spells: ['wander'] },
  ];
  it('loads library files that add spells without clashing with the source', () => {
    expect(libraryFilesFor(library, ['fireball']).map((f) => f.name)).toEqual(['trolls']);
    expect(libraryFilesFor(library, ['trollAttack']).map((f) => f.name)).toEqual(['fireball', 'copy']);
  });

  it('keeps only the behaviour spells that exist', () => {
    const data = { breeds: [{ name: 'Troll', spells: { attack: 'trollAttack', tick: 'wander' } }, { name: 'Rock' }] };
    const { data: kept, dropped } = keepKnownSpells(data, new Set(['wander']));
    expect(kept).toEqual({ breeds: [{ name: 'Troll', spells: { tick: 'wander' } }, { name: 'Rock' }] });
    expect(dropped).toEqual(['Troll.attack']);
    expect(data.breeds[0]!.spells).toEqual({ attack: 'trollAttack', tick: 'wander' });
  });
});
