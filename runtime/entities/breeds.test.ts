import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BreedRegistry } from './breeds.js';
import { BreedError } from '../errors.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { Ajv } from 'ajv';
import { BREED_SCHEMA } from './breed-schema.js';

const load = (breeds: unknown[]): BreedRegistry => BreedRegistry.fromData({ breeds });

function breedError(fn: () => unknown): BreedError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BreedError) return e;
    throw e;
  }
  throw new Error('expected a BreedError');
}

describe('the book example (spells/breeds.json)', () => {
  const registry = BreedRegistry.fromJson(readFileSync(new URL('../../spells/breeds.json', import.meta.url), 'utf8'));

  it('loads the trolls, children inheriting what they leave out', () => {
    const troll = registry.get('Troll')!;
    const archer = registry.get('Troll Archer')!;
    const wizard = registry.get('Troll Wizard')!;
    expect(troll.health).toBe(25);
    expect(troll.attributes.get('attackText')).toBe('The troll hits you!');
    expect(archer.health).toBe(25);
    expect(archer.attributes.get('attackText')).toBe('The troll archer fires an arrow!');
    expect(archer.attributes.get('armor')).toBe(2);
    expect(archer.spells).toEqual({ attack: 'trollAttack', tick: 'wander' });
    expect(wizard.attributes.get('attackText')).toBe('The troll wizard casts a spell on you!');
    expect(wizard.attributes.get('wisdom')).toBe(6);
    expect(archer.glyph).toBe('A');
    expect(archer.interest).toBe(6);
  });

  it('answers ancestry questions', () => {
    const archer = registry.get('Troll Archer')!;
    expect(registry.isA(archer.index, 'Troll')).toBe(true);
    expect(registry.isA(archer.index, 'Creature')).toBe(true);
    expect(registry.isA(archer.index, 'Troll Wizard')).toBe(false);
    expect(registry.isA(registry.get('Troll')!.index, 'Troll Archer')).toBe(false);
    expect(archer.ancestry).toEqual(['Troll Archer', 'Troll', 'Creature']);
    expect(registry.get('Creature')!.abstract).toBe(true);
  });

  it('checks spell names against the loaded spells', () => {
    const all = new Set(['fireball', 'trollAttack', 'wander', 'impTick', 'spikeTrap', 'shrineWelcome', 'shrineFarewell']);
    expect(() => registry.checkSpells(all)).not.toThrow();
    all.delete('wander');
    const err = breedError(() => registry.checkSpells(all));
    expect(err.breed).toBe('Troll');
    expect(err.field).toBe('spells.tick');
    expect(err.message).toBe(
      "Breed 'Troll': field 'spells.tick' names spell 'wander', which the loaded spells do not define.",
    );
  });
});

describe('the breed schema', () => {
  // breeds.ts compiles it without checking it against the meta-schema (a start-up cost): checked here instead.
  it('is a valid JSON Schema (draft-07 meta-schema, ajv strict mode)', () => {
    const ajv = new Ajv({ strict: true });
    expect(ajv.validateSchema(BREED_SCHEMA), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(BREED_SCHEMA)).not.toThrow();
  });
});

describe('breed errors name the breed and the field', () => {
  const cases: [string, unknown[], string | null, string | null, RegExp][] = [
    ['unknown parent', [{ name: 'A', parent: 'Nope' }], 'A', 'parent', /unknown breed 'Nope'/],
    ['cycle', [{ name: 'A', parent: 'B' }, { name: 'B', parent: 'A' }], 'A', 'parent', /cycle: A → B → A/],
    ['self parent', [{ name: 'A', parent: 'A' }], 'A', 'parent', /cycle/],
    ['wrong type', [{ name: 'Troll', health: 'lots' }], 'Troll', 'health', /must be a number/],
    ['negative', [{ name: 'Troll', speed: -1 }], 'Troll', 'speed', /must be >= 0/],
    ['duplicate', [{ name: 'A' }, { name: 'A' }], 'A', 'name', /duplicates/],
    ['missing name', [{ health: 3 }], null, 'name', /Breed #1: field 'name' is required/],
    ['unknown field', [{ name: 'T', helth: 3 }], 'T', 'helth', /not a breed field/],
    ['bad spell slot', [{ name: 'T', spells: { attack: 3 } }], 'T', 'spells.attack', /must be a string/],
    ['unknown spell slot', [{ name: 'T', spells: { onDie: 'x' } }], 'T', 'spells.onDie', /not a breed field/],
    ['bad attribute value', [{ name: 'T', attributes: { armor: [1] } }], 'T', 'attributes.armor', /number, a string or a boolean/],
    ['bad attribute name', [{ name: 'T', attributes: { 'attack text': 'x' } }], 'T', 'attributes.attack text', /attribute name/],
    ['shadowing attribute', [{ name: 'T', attributes: { health: 3 } }], 'T', 'attributes.health', /built-in/],
    ['tags type', [{ name: 'T', tags: 'monster' }], 'T', 'tags', /must be an array/],
  ];
  it.each(cases)('%s', (_label, breeds, breed, field, message) => {
    const err = breedError(() => load(breeds));
    expect(err.breed).toBe(breed);
    expect(err.field).toBe(field);
    expect(err.message).toMatch(message);
  });

  it('reports JSON syntax errors with line and column', () => {
    const err = breedError(() => BreedRegistry.fromJson('{\n  "breeds": [\n    { "name": "A", }\n  ]\n}'));
    expect(err.line).toBe(3);
    expect(err.column).toBe(20);
    expect(err.message).toMatch(/line 3, column 20/);
  });

  it('rejects a file without a breeds array', () => {
    expect(breedError(() => BreedRegistry.fromJson('[]')).message).toMatch(/must be an object/);
    expect(breedError(() => BreedRegistry.fromJson('{}')).message).toMatch(/must have a 'breeds' array/);
  });
});

describe('hostile breed data', () => {
  it('keeps __proto__, constructor and friends as ordinary attributes', () => {
    const text = `{"breeds":[{"name":"Odd","attributes":{"__proto__":1,"constructor":"c","prototype":true,"toString":2,"hasOwnProperty":3}},
      {"name":"Child","parent":"Odd","attributes":{"toString":9}}]}`;
    const registry = BreedRegistry.fromJson(text);
    const odd = registry.get('Odd')!;
    expect(odd.attributes.get('__proto__')).toBe(1);
    expect(odd.attributes.get('constructor')).toBe('c');
    expect(odd.attributes.get('prototype')).toBe(true);
    const child = registry.get('Child')!;
    expect(child.attributes.get('toString')).toBe(9);
    expect(child.attributes.get('__proto__')).toBe(1);
    expect(registry.get('toString')).toBeUndefined();
    expect(registry.get('__proto__')).toBeUndefined();
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  it('breeds named like Object.prototype members are ordinary breeds', () => {
    const registry = load([{ name: '__proto__' }, { name: 'constructor', parent: '__proto__' }]);
    expect(registry.isA(registry.get('constructor')!.index, '__proto__')).toBe(true);
    expect(registry.isA(registry.get('constructor')!.index, 'hasOwnProperty')).toBe(false);
  });

  it('throws only BreedError for random and mutated breed files', () => {
    const seed = readFileSync(new URL('../../spells/breeds.json', import.meta.url), 'utf8');
    const mutated = fc
      .tuple(fc.nat({ max: seed.length }), fc.nat({ max: 40 }), fc.string({ maxLength: 12 }))
      .map(([at, cut, insert]) => seed.slice(0, at) + insert + seed.slice(at + cut));
    const anyJson = fc.oneof(
      fc.json(),
      fc.jsonValue().map((breeds) => JSON.stringify({ breeds })),
      fc.array(fc.dictionary(fc.constantFrom('name', 'parent', 'health', 'spells', 'attributes', 'tags', '__proto__'), fc.jsonValue())).map((b) =>
        JSON.stringify({ breeds: b }),
      ),
    );
    fc.assert(
      fc.property(fc.oneof(mutated, anyJson, fc.string()), (text) => {
        try {
          BreedRegistry.fromJson(text);
        } catch (e) {
          expect(e).toBeInstanceOf(BreedError);
          const err = e as BreedError;
          if (err.breed !== null) expect(err.message).toContain(err.breed);
          if (err.field !== null) expect(err.message).toContain(err.field);
        }
      }),
      { seed: 99, numRuns: 1500 },
    );
  });

  it('limits inheritance depth without overflowing the stack', () => {
    const breeds = Array.from({ length: 5000 }, (_, i) => (i === 0 ? { name: 'b0' } : { name: `b${i}`, parent: `b${i - 1}` }));
    expect(breedError(() => load(breeds)).field).toBe('parent');
  });
});

describe('findJsonSyntaxError', () => {
  it('agrees with JSON.parse on validity', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), fc.json().map((j) => j.slice(0, -1))), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(findJsonSyntaxError(text) === null).toBe(valid);
      }),
      { seed: 5, numRuns: 2000 },
    );
  });

  it('survives deep nesting', () => {
    expect(findJsonSyntaxError('['.repeat(200_000))).not.toBeNull();
    expect(findJsonSyntaxError('['.repeat(100_000) + ']'.repeat(100_000))).toBeNull();
  });
});
