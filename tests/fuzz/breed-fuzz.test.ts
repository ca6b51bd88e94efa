/**
 * Fuzz 4: random and mutated breed JSON. Loading either succeeds with a
 * consistent registry (inheritance copied down, ancestry ending at a root) or
 * throws a BreedError that names where the problem is: the breed and the
 * field for bad data, the line and column for bad JSON. Never another error.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BreedRegistry } from '../../runtime/entities/breeds.js';
import { BreedError } from '../../runtime/errors.js';
import { World } from '../../runtime/world/world.js';
import { breedCorpus } from './corpus.js';
import { checkProperty, LEAKED_JS_ERROR, prototypesClean } from './fuzz-settings.js';
import { anyCodeUnit } from './source-mutation.js';

const corpus = breedCorpus();

const NAMES = ['Troll', 'Troll Archer', 'Imp', 'A', '__proto__', 'constructor', 'toString', '', 'x'.repeat(70)];
const FIELDS = ['name', 'parent', 'abstract', 'description', 'health', 'speed', 'radius', 'interest', 'color', 'glyph', 'tags', 'spells', 'attributes'];
const SPELL_SLOTS = ['attack', 'tick', 'onEnter', 'onLeave', '__proto__', 'constructor'];
const ATTRIBUTE_NAMES = ['armor', 'wisdom', '__proto__', 'constructor', 'hasOwnProperty', 'x', 'health', 'bad name', '9lives'];

/** Values of every JSON type, including ones just past the schema's limits. */
const jsonLeaf = fc.oneof(
  fc.constantFrom(0, -1, 1, 2.5, 1e9, 1e9 + 1, 1e16, -1e16, 'text', '', 'Troll', '__proto__', true, false, null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
);
const jsonValue = fc.oneof(
  { arbitrary: jsonLeaf, weight: 4 },
  { arbitrary: fc.array(jsonLeaf, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.constantFrom(...ATTRIBUTE_NAMES, ...SPELL_SLOTS), jsonLeaf, { maxKeys: 3 }), weight: 1 },
);

/** A breed object: mostly well-typed fields, sometimes wrong ones, unknown ones and JS names. */
const breedObject = fc
  .record(
    {
      name: fc.oneof(fc.constantFrom(...NAMES), jsonLeaf),
      parent: fc.constantFrom(...NAMES, 'Nobody'),
      abstract: fc.oneof(fc.boolean(), jsonLeaf),
      health: fc.oneof(fc.integer({ min: 0, max: 100 }), jsonLeaf),
      speed: fc.oneof(fc.double({ min: 0, max: 10, noNaN: true }), jsonLeaf),
      tags: fc.oneof(fc.array(fc.constantFrom('monster', 'hero', '__proto__', 'bad tag', 'monster'), { maxLength: 3 }), jsonValue),
      spells: fc.oneof(fc.dictionary(fc.constantFrom(...SPELL_SLOTS), fc.constantFrom('fireball', 'wander', 'bad name', '__proto__'), { maxKeys: 2 }), jsonValue),
      attributes: fc.oneof(fc.dictionary(fc.constantFrom(...ATTRIBUTE_NAMES), jsonLeaf, { maxKeys: 4 }), jsonValue),
      extra: fc.tuple(fc.constantFrom('hp', '__proto__', 'constructor', 'Name'), jsonValue),
    },
    { requiredKeys: ['name'] },
  )
  .map(({ extra, ...breed }) => (extra === undefined ? breed : { ...breed, [extra[0]]: extra[1] }) as Record<string, unknown>);

const breedFile = fc.oneof(
  { arbitrary: fc.array(breedObject, { maxLength: 6 }).map((breeds) => ({ breeds })), weight: 6 },
  { arbitrary: fc.array(fc.oneof(breedObject, jsonValue), { maxLength: 4 }).map((breeds) => ({ breeds })), weight: 1 },
  { arbitrary: jsonValue, weight: 1 },
);

/** Everything wrong with loading `input` (empty when it loaded, or failed with a well-formed BreedError). */
function loadProblems(input: string | unknown): string[] {
  let registry: BreedRegistry;
  try {
    registry = typeof input === 'string' ? BreedRegistry.fromJson(input) : BreedRegistry.fromData(input);
  } catch (error) {
    return breedErrorProblems(error, typeof input === 'string');
  }
  return [...registryProblems(registry), ...(prototypesClean() ? [] : ['a prototype was modified'])];
}

function breedErrorProblems(error: unknown, fromText: boolean): string[] {
  if (!(error instanceof BreedError)) return [`not a BreedError: ${error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error)}`];
  const problems: string[] = [];
  const { message, breed, field, line, column } = error;
  if (LEAKED_JS_ERROR.test(message)) problems.push(`leaked JS error: ${message}`);
  if (line !== null) {
    if (!fromText) problems.push('a line number for parsed data');
    if (!(line >= 1 && column !== null && column >= 1)) problems.push(`bad position ${line}:${column}`);
    if (!message.includes(`line ${line}, column ${column}`)) problems.push(`message does not give the position: ${message}`);
  } else if (message.startsWith('Breed ')) {
    // Inside the breeds array: the message names the breed (or its position) and the field.
    if (breed !== null && !message.includes(`'${breed}'`)) problems.push(`message does not name breed ${breed}: ${message}`);
    if (field !== null && !message.includes(field)) problems.push(`message does not name field ${field}: ${message}`);
    if (breed === null && !/^Breed #\d+/.test(message)) problems.push(`no breed named: ${message}`);
  } else if (!message.startsWith('Breeds file')) {
    problems.push(`message names neither a breed nor the file: ${message}`);
  }
  return problems;
}

function registryProblems(registry: BreedRegistry): string[] {
  const problems: string[] = [];
  registry.breeds.forEach((breed, index) => {
    if (breed.index !== index) problems.push(`${breed.name}: index ${breed.index} at ${index}`);
    if (registry.get(breed.name) !== breed) problems.push(`${breed.name}: not found by name`);
    if (breed.ancestry[0] !== breed.name) problems.push(`${breed.name}: ancestry starts with ${breed.ancestry[0]}`);
    const parent = breed.parent === null ? null : registry.get(breed.parent);
    if (breed.parent !== null && parent === undefined) problems.push(`${breed.name}: unknown parent kept`);
    if (parent) {
      if (breed.ancestry.length !== parent.ancestry.length + 1) problems.push(`${breed.name}: ancestry not its parent's plus one`);
      for (const [key, value] of parent.attributes) {
        if (!breed.attributes.has(key)) problems.push(`${breed.name}: lost inherited attribute ${key}`);
        else if (typeof value !== typeof breed.attributes.get(key) && breed.attributes.get(key) === undefined) problems.push(`${breed.name}: ${key}`);
      }
    }
    for (const n of [breed.health, breed.speed, breed.radius, breed.interest]) {
      if (!Number.isFinite(n) || n < 0) problems.push(`${breed.name}: stat ${n}`);
    }
    if (!registry.isA(index, breed.name)) problems.push(`${breed.name}: is not itself`);
  });
  return problems;
}

/** A JSON text mutation: delete, insert, duplicate or truncate characters. */
const textMutation = fc.tuple(fc.constantFrom('delete', 'insert', 'duplicate', 'truncate'), fc.nat(), fc.integer({ min: 1, max: 8 }), fc.oneof(fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'null', '1e999', '-', '/*', '\n'), anyCodeUnit));

function mutateText(text: string, [kind, at, length, insert]: [string, number, number, string]): string {
  const i = at % (text.length + 1);
  switch (kind) {
    case 'delete':
      return text.slice(0, i) + text.slice(i + length);
    case 'insert':
      return text.slice(0, i) + insert + text.slice(i);
    case 'duplicate':
      return text.slice(0, i + length) + text.slice(i, i + length) + text.slice(i + length);
    default:
      return text.slice(0, i);
  }
}

/** Replace, delete or add one value somewhere inside parsed JSON. */
const dataMutation = fc.tuple(fc.nat(), fc.constantFrom('replace', 'delete', 'add'), fc.constantFrom(...FIELDS, ...ATTRIBUTE_NAMES, 'parent'), jsonValue);

function mutateData(data: unknown, [pick, kind, key, value]: [number, string, string, unknown]): unknown {
  const copy = structuredClone(data) as unknown;
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const visit = (node: unknown): void => {
    if (node !== null && typeof node === 'object') {
      containers.push(node as Record<string, unknown>);
      for (const child of Object.values(node)) visit(child);
    }
  };
  visit(copy);
  const target = containers[pick % containers.length]!;
  if (Array.isArray(target)) {
    const i = target.length === 0 ? 0 : pick % target.length;
    if (kind === 'delete') target.splice(i, 1);
    else if (kind === 'add') target.push(value);
    else target[i] = value;
  } else {
    const keys = Object.keys(target);
    const existing = keys.length === 0 ? key : keys[pick % keys.length]!;
    if (kind === 'delete') delete target[existing];
    // defineProperty, so "__proto__" becomes an own key exactly as JSON.parse makes it.
    else Object.defineProperty(target, kind === 'add' ? key : existing, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

describe('breed files', () => {
  it('has breed files to mutate, and they load', () => {
    expect(corpus.length).toBeGreaterThan(0);
    for (const file of corpus) expect(loadProblems(file.text), file.name).toEqual([]);
  });

  it('random breed data both loads and fails often enough to be worth its runs', () => {
    const outcomes = fc.sample(breedFile, { numRuns: 400, seed: 3 }).map((data) => {
      try {
        BreedRegistry.fromData(data);
        return 'loaded';
      } catch {
        return 'refused';
      }
    });
    expect(outcomes.filter((o) => o === 'loaded').length).toBeGreaterThan(20);
    expect(outcomes.filter((o) => o === 'refused').length).toBeGreaterThan(20);
  });

  it('random breed data: a consistent registry or a BreedError naming the breed and field', () => {
    checkProperty(
      'breeds/random-data',
      fc.property(breedFile, (data) => {
        expect(loadProblems(data), JSON.stringify(data)).toEqual([]);
        expect(loadProblems(JSON.stringify(data)), JSON.stringify(data)).toEqual([]);
      }),
      1_500,
    );
  });

  it('arbitrary JSON values: a BreedError, never a crash', () => {
    checkProperty(
      'breeds/any-json',
      fc.property(fc.jsonValue({ maxDepth: 4 }), (data) => {
        expect(loadProblems(data)).toEqual([]);
      }),
      800,
    );
  });

  it('mutated breed JSON text: a BreedError with line and column, or a registry', () => {
    const file = fc.nat({ max: corpus.length - 1 }).map((i) => corpus[i]!);
    checkProperty(
      'breeds/mutated-text',
      fc.property(file, fc.array(textMutation, { minLength: 1, maxLength: 3 }), (f, mutations) => {
        const text = mutations.reduce(mutateText, f.text);
        expect(loadProblems(text), text.slice(0, 500)).toEqual([]);
      }),
      1_000,
    );
  });

  it('mutated breed data: a BreedError naming breed and field, or a registry', () => {
    const file = fc.nat({ max: corpus.length - 1 }).map((i) => JSON.parse(corpus[i]!.text) as unknown);
    checkProperty(
      'breeds/mutated-data',
      fc.property(file, fc.array(dataMutation, { minLength: 1, maxLength: 3 }), (data, mutations) => {
        const mutated = mutations.reduce(mutateData, data);
        expect(loadProblems(mutated), JSON.stringify(mutated).slice(0, 500)).toEqual([]);
        expect(loadProblems(JSON.stringify(mutated))).toEqual([]);
      }),
      1_500,
    );
  });

  it('a world refuses breeds that name spells it does not have, with a BreedError', () => {
    checkProperty(
      'breeds/world-spells',
      fc.property(fc.constantFrom('attack', 'tick', 'onEnter', 'onLeave'), fc.constantFrom('fireball', 'missing', 'constructor'), (slot, spell) => {
        const world = new World({ width: 10, height: 10 });
        world.loadSpells('spell fireball(self, target) {}', 'f.spell');
        try {
          world.loadBreeds({ breeds: [{ name: 'Imp', spells: { [slot]: spell } }] });
          expect(spell).toBe('fireball');
        } catch (error) {
          expect(breedErrorProblems(error, false)).toEqual([]);
          expect((error as BreedError).field).toBe(`spells.${slot}`);
        }
      }),
      50,
    );
  });
});

describe('regressions found by the breed fuzzer', () => {
  it('deeply nested JSON is a clean error, not a stack overflow', () => {
    expect(loadProblems('['.repeat(100_000) + ']'.repeat(100_000))).toEqual([]);
    expect(loadProblems('{"breeds": ' + '['.repeat(100_000))).toEqual([]);
  });

  it('a 300-breed parent chain is refused cleanly', () => {
    const breeds = Array.from({ length: 300 }, (_, i) => (i === 0 ? { name: 'B0' } : { name: `B${i}`, parent: `B${i - 1}` }));
    expect(loadProblems({ breeds })).toEqual([]);
  });
});
