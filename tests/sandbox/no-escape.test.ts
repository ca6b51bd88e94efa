/**
 * No escape: spell code reaches only its own values and the host API. The
 * names JavaScript gives special meaning — `__proto__`, `constructor`,
 * `prototype`, `toString`, `hasOwnProperty`, `valueOf`, `__defineGetter__` —
 * are ordinary Cantrip names everywhere a name can appear: fields, methods,
 * classes, globals, locals, spells, list and entity properties, breed names
 * and breed attributes. Reading one that was never set is "Undefined
 * property" (or "Undefined variable"), never a JS function or object, and
 * nothing ever lands on Object.prototype.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { BreedError, WorldError } from '../../runtime/errors.js';
import { BreedRegistry } from '../../runtime/entities/breeds.js';
import { World } from '../../runtime/world/world.js';
import { CORE_HOST_FUNCTIONS } from '../../vm/builtins.js';
import { VerifyError } from '../../vm/errors.js';
import type { Module } from '../../vm/module.js';
import { readSpb, writeSpb } from '../../vm/spb.js';
import { verifyModule } from '../../vm/verifier.js';
import { VM } from '../../vm/vm.js';
import { prototypesClean } from '../fuzz/fuzz-settings.js';
import { compileOrThrow, makeVm } from './sandbox-helpers.js';
import type { BreedData } from '../../runtime/entities/breeds.js';

const JS_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '__lookupGetter__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
] as const;

/** Run a script; the printed lines and the runtime error message, if any. */
function run(source: string): { printed: string[]; error: string | null } {
  const { vm, printed } = makeVm(source, { fuel: 100_000 });
  const fiber = vm.runScript();
  return { printed, error: fiber.error?.message ?? null };
}

afterEach(() => {
  expect(prototypesClean(), 'a prototype was modified').toBe(true);
});

describe.each(JS_NAMES)('%s in spell code', (name) => {
  it('is an undefined property on a fresh instance', () => {
    expect(run(`class A {}\nprint A().${name};`)).toEqual({ printed: [], error: `Undefined property '${name}'.` });
  });

  it('is an ordinary field: set, read, per instance', () => {
    const r = run(`class A {}\nvar a = A();\nvar b = A();\na.${name} = 5;\nprint a.${name};\na.${name} = a.${name} + 1;\nprint a.${name};\nprint b.${name};`);
    expect(r).toEqual({ printed: ['5', '6'], error: `Undefined property '${name}'.` });
  });

  it('a field may hold an instance, a list, a function', () => {
    const r = run(`class A {}\nfun f() { return "called"; }\nvar a = A();\na.${name} = a;\nprint a.${name} == a;\na.${name} = [1, 2];\nprint a.${name};\na.${name} = f;\nprint a.${name}();`);
    expect(r).toEqual({ printed: ['true', '[1, 2]', 'called'], error: null });
  });

  it('is an ordinary method, inherited, bound, and reachable through super', () => {
    const r = run(
      `class A { ${name}() { return "A." + "${name}"; } }\n` +
        `class B < A { ${name}() { return "B>" + super.${name}(); } }\n` +
        `print A().${name}();\nprint B().${name}();\nvar m = B().${name};\nprint m();\nclass C < A {}\nprint C().${name}();`,
    );
    expect(r).toEqual({ printed: [`A.${name}`, `B>A.${name}`, `B>A.${name}`, `A.${name}`], error: null });
  });

  it('is an ordinary map key: absent until set, then stored, counted, listed and removed', () => {
    const r = run(
      `var m = {"${name}": 1};\nm["${name}"] += 1;\nprint m["${name}"];\nprint len(m);\nprint m.keys();\n` +
        `print m.has("${name}");\nprint {}.has("${name}");\nprint {}.get("${name}", "none");\nprint m.remove("${name}");\nprint m;\nprint {}["${name}"];`,
    );
    expect(r).toEqual({ printed: ['2', '1', `[${name}]`, 'true', 'false', 'none', '2', '{}'], error: `Undefined key '${name}'.` });
  });

  it('is not a method of strings, lists or maps', () => {
    expect(run(`"s".${name}();`).error).toBe('Only instances have methods.');
    expect(run(`[].${name}();`).error).toBe(`Undefined property '${name}'.`);
    expect(run(`({}).${name}();`).error).toBe(`Undefined property '${name}'.`);
    expect(run(`print {}.${name};`).error).toBe(`Undefined property '${name}'.`);
  });

  it('a field shadows a method of the same name (as in clox)', () => {
    const r = run(`class A { ${name}() { return "method"; } }\nvar a = A();\nfun f() { return "field"; }\na.${name} = f;\nprint a.${name}();`);
    expect(r).toEqual({ printed: ['field'], error: null });
  });

  it('is an ordinary class name', () => {
    const r = run(`class ${name} { init() { this.v = 1; } }\nprint ${name};\nprint ${name}();\nprint ${name}().v;`);
    expect(r).toEqual({ printed: [name, `${name} instance`, '1'], error: null });
  });

  it('is an undefined global until defined, then an ordinary global, function, local and parameter', () => {
    expect(run(`print ${name};`)).toEqual({ printed: [], error: `Undefined variable '${name}'.` });
    expect(run(`${name}(1);`).error).toBe(`Undefined variable '${name}'.`);
    expect(run(`${name} = 1;`).error).toBe(`Undefined variable '${name}'.`);
    expect(run(`var ${name} = 1;\nprint ${name};\n${name} = ${name} + 1;\nprint ${name};`).printed).toEqual(['1', '2']);
    expect(run(`fun ${name}(x) { return x * 2; }\nprint ${name}(4);\nprint ${name};`).printed).toEqual(['8', `<fn ${name}>`]);
    expect(run(`{ var ${name} = "local"; print ${name}; }`).printed).toEqual(['local']);
    expect(run(`fun f(${name}) { return ${name}; }\nprint f(3);`).printed).toEqual(['3']);
    expect(run(`fun make() { var ${name} = 0; fun inc() { ${name} = ${name} + 1; return ${name}; } return inc; }\nvar i = make();\ni();\nprint i();`).printed).toEqual(['2']);
  });

  it('is an undefined property on lists, and lists take no fields', () => {
    expect(run(`print [].${name};`).error).toBe(`Undefined property '${name}'.`);
    expect(run(`print [1].${name}();`).error).toBe(`Undefined property '${name}'.`);
    expect(run(`var l = [];\nl.${name} = 1;`).error).toBe('Only instances have fields.');
  });

  it('reaches nothing on strings, numbers, classes, functions and nil', () => {
    for (const receiver of ['"text"', '(1)', 'true', 'nil', 'A', 'f', 'len']) {
      const r = run(`class A {}\nfun f() {}\nprint ${receiver}.${name};`);
      expect(r.printed).toEqual([]);
      expect(r.error).toMatch(/^(Only instances have properties\.|Undefined property)/);
      const call = run(`class A {}\nfun f() {}\nprint ${receiver}.${name}();`);
      expect(call.printed).toEqual([]);
      expect(call.error).toMatch(/^(Only instances have (properties|methods)\.|Undefined property)/);
    }
  });

  it('is an ordinary spell name, and an unknown one is "Undefined spell"', () => {
    const { vm } = makeVm(`spell ${name}(x) { return x + 1; }`);
    expect(vm.spellNames()).toEqual([name]);
    expect(vm.cast(name, [1]).result).toBe(2);
    const { vm: empty } = makeVm('spell other() {}');
    expect(empty.cast(name, []).error?.message).toBe(`Undefined spell '${name}'.`);
    expect(empty.call(name, []).error?.message).toBe(`Undefined variable '${name}'.`);
    expect(empty.getGlobal(name)).toBeUndefined();
  });
});

describe('JS names at the edges of the VM', () => {
  it('a compile-time call of a JS name is not mistaken for a host function', () => {
    for (const name of JS_NAMES) {
      const { module } = compile(`${name}(1);`, { hosts: CORE_HOST_FUNCTIONS });
      // Either refused at compile time or compiled as an ordinary (undefined) global call.
      if (module !== null) expect(module.hostImports.map((h) => h.name)).not.toContain(name);
    }
  });

  it('a .spb importing a host named like a JS builtin is refused at load', () => {
    const module = compileOrThrow('print len("ab");');
    for (const name of JS_NAMES) {
      const forged: Module = { ...module, hostImports: module.hostImports.map((h) => ({ ...h, name })) };
      expect(() => verifyModule(readSpb(writeSpb(forged)), CORE_HOST_FUNCTIONS)).toThrow(VerifyError);
      expect(() => new VM(forged, { hosts: CORE_HOST_FUNCTIONS })).toThrow(VerifyError);
    }
  });

  it('printing values never calls a JS toString', () => {
    const r = run('class toString { toString() { return "no"; } }\nvar t = toString();\nprint t;\nprint [t, toString];\nprint str(t);');
    expect(r).toEqual({ printed: ['toString instance', '[toString instance, toString]', 'toString instance'], error: null });
  });
});

// ------------------------------------------------------------------ entities and breeds

function worldWith(breeds: unknown, spells: string): World {
  const world = new World({ width: 20, height: 20, seed: 1 });
  world.loadSpells(spells, 'escape.spell');
  world.loadBreeds(breeds as BreedData); // hostile data: loadBreeds checks whatever it is given
  return world;
}

function printsOf(world: World, act: () => void): { printed: string[]; errors: string[] } {
  const printed: string[] = [];
  const errors: string[] = [];
  const stop = world.on((e) => {
    if (e.type === 'print') printed.push(e.text);
    if (e.type === 'cast-error') errors.push(e.message);
  });
  act();
  world.flush();
  stop();
  return { printed, errors };
}

describe.each(JS_NAMES)('%s on entities', (name) => {
  const spells =
    `spell read(self) { print self.${name}; }\n` +
    `spell write(self) { self.${name} = 7; print self.${name}; }\n` +
    `spell call(self) { print self.${name}(); }\n` +
    `spell other(self, o) { print o.${name}; }`;

  it('is an undefined property, then an ordinary field of that entity only', () => {
    const world = worldWith({ breeds: [{ name: 'Imp' }] }, spells);
    const a = world.spawn('Imp', 1, 1);
    const b = world.spawn('Imp', 2, 2);
    expect(printsOf(world, () => world.cast('read', a))).toEqual({ printed: [], errors: [`Undefined property '${name}'.`] });
    expect(printsOf(world, () => world.cast('call', a))).toEqual({ printed: [], errors: [`Undefined property '${name}'.`] });
    expect(printsOf(world, () => world.cast('write', a))).toEqual({ printed: ['7'], errors: [] });
    expect(printsOf(world, () => world.cast('other', b, a))).toEqual({ printed: ['7'], errors: [] });
    expect(printsOf(world, () => world.cast('other', a, b))).toEqual({ printed: [], errors: [`Undefined property '${name}'.`] });
    expect(world.property(a, name)).toBe(7);
    expect(world.property(b, name)).toBeUndefined();
  });

  it('as a breed attribute, is data the entity reads', () => {
    const world = worldWith({ breeds: [{ name: 'Imp', attributes: { [name]: 3 } }, { name: 'Big', parent: 'Imp' }] }, spells);
    const big = world.spawn('Big', 1, 1);
    expect(printsOf(world, () => world.cast('read', big))).toEqual({ printed: ['3'], errors: [] });
    expect(world.breeds.get('Big')!.attributes.get(name)).toBe(3);
  });

  it('as a breed name, parent, tag and spell slot value', () => {
    const breeds = { breeds: [{ name, tags: [name], spells: { attack: 'read' } }, { name: `${name}Child`, parent: name }] };
    const world = worldWith(breeds, spells + `\nspell kind(self) { print self.breed; print self.is("${name}"); }`);
    const child = world.spawn(`${name}Child`, 1, 1);
    expect(printsOf(world, () => world.cast('kind', child))).toEqual({ printed: [`${name}Child`, 'true'], errors: [] });
    expect(world.breeds.get(`${name}Child`)!.ancestry).toEqual([`${name}Child`, name]);
    expect(world.breeds.get(`${name}Child`)!.spells.attack).toBe('read');
  });

  it('is an unknown breed, spell and property through the embedder API', () => {
    const world = worldWith({ breeds: [{ name: 'Imp' }] }, spells);
    const imp = world.spawn('Imp', 1, 1);
    expect(() => world.spawn(name, 1, 1)).toThrow(WorldError);
    expect(() => world.cast(name, imp)).toThrow(WorldError);
    expect(world.property(imp, name)).toBeUndefined();
    expect(world.breeds.get(name)).toBeUndefined();
  });

  it('spawn() from a spell with that breed name is a clean error', () => {
    const world = worldWith({ breeds: [{ name: 'Imp' }] }, `spell make(self) { spawn("${name}", 1, 1); }`);
    const imp = world.spawn('Imp', 1, 1);
    const r = world.cast('make', imp);
    expect(r.state).toBe('failed');
    expect(r.error!.message).toBe(`Unknown breed '${name}'.`);
  });
});

describe('breed JSON with JS names', () => {
  it('a "__proto__" key in JSON text is data, not a prototype', () => {
    const text = '{"breeds": [{"name": "Imp", "attributes": {"__proto__": 5, "constructor": "c", "toString": true}}]}';
    const registry = BreedRegistry.fromJson(text);
    const imp = registry.get('Imp')!;
    expect([...imp.attributes]).toEqual([
      ['__proto__', 5],
      ['constructor', 'c'],
      ['toString', true],
    ]);
  });

  it('a "__proto__" breed field is an unknown field, named', () => {
    const text = '{"breeds": [{"name": "Imp", "__proto__": {"health": 99}}]}';
    const error = catchBreedError(() => BreedRegistry.fromJson(text));
    expect(error.breed).toBe('Imp');
    expect(error.field).toBe('__proto__');
  });

  it('a top-level "__proto__" or "constructor" key is an unknown field', () => {
    for (const key of ['__proto__', 'constructor', 'hasOwnProperty']) {
      const error = catchBreedError(() => BreedRegistry.fromJson(`{"${key}": {"breeds": []}, "breeds": []}`));
      expect(error.message).toContain(key);
    }
  });

  it('JS names as spell slots are refused, naming the breed and the field', () => {
    for (const key of JS_NAMES) {
      const error = catchBreedError(() => BreedRegistry.fromJson(`{"breeds": [{"name": "Imp", "spells": {"${key}": "x"}}]}`));
      expect(error.breed).toBe('Imp');
      expect(error.field).toBe(`spells.${key}`);
    }
  });

  it('"hasOwnProperty" and "constructor" as parents are ordinary unknown or known breeds', () => {
    const unknown = catchBreedError(() => BreedRegistry.fromJson('{"breeds": [{"name": "Imp", "parent": "hasOwnProperty"}]}'));
    expect(unknown.breed).toBe('Imp');
    expect(unknown.field).toBe('parent');
    const known = BreedRegistry.fromJson('{"breeds": [{"name": "constructor", "health": 3}, {"name": "Imp", "parent": "constructor"}]}');
    expect(known.get('Imp')!.health).toBe(3);
  });

  it('a parent cycle through JS names is reported, not followed forever', () => {
    const error = catchBreedError(() =>
      BreedRegistry.fromJson('{"breeds": [{"name": "__proto__", "parent": "constructor"}, {"name": "constructor", "parent": "__proto__"}]}'),
    );
    expect(error.field).toBe('parent');
    expect(error.message).toMatch(/cycle/);
  });
});

function catchBreedError(load: () => unknown): BreedError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(BreedError);
    return error as BreedError;
  }
  throw new Error('expected a BreedError');
}
