import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { HOST_API_SCHEMA, readHostApiDeclaration } from '../../vm/host-api-json.js';
import { hostApiDeclaration, World, worldHostFunction } from '../../index.js';
import { main } from '../cli.js';
import type { CliIO } from '../io.js';
import { tempDir } from '../../tests/temp-dir.test-helper.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await main(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

const GAME_API = {
  format: 'cantrip-host-api',
  version: 1,
  functions: [
    { name: 'shake', params: [{ name: 'seconds', type: 'number' }], returns: 'nil', doc: 'Shake the camera.' },
    { name: 'gold', params: [{ name: 'who', type: 'entity' }], returns: 'number', doc: 'Gold an entity carries.' },
    { name: 'title', params: [{ name: 'who', type: 'entity' }], returns: 'string', doc: 'Its title.' },
  ],
};

const SPELL = `spell quake(caster, target) {
  shake(0.5);
  print gold(target) + 1;
  print title(target) + "!";
  damage(target, 3);
}
`;

function workspace(): { dir: string; write(name: string, text: string): string } {
  const dir = tempDir('cantrip-api-');
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}

describe('cantrip api', () => {
  it('--json prints the built-in table as a declaration valid against the schema (ajv)', async () => {
    const { code, out } = await run('api', '--json');
    expect(code).toBe(0);
    const data = JSON.parse(out) as unknown;
    const validate = new Ajv({ strict: true }).compile(HOST_API_SCHEMA);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    const functions = readHostApiDeclaration(data);
    expect(functions.map((f) => f.name)).toEqual(WORLD_HOST_FUNCTIONS.map((f) => f.name));
    expect(functions.find((f) => f.name === 'nearest')!.params[2]).toEqual({
      name: 'kind',
      type: 'string',
      optional: true,
      doc: 'only entities that `is` this breed or tag',
    });
  });

  it('prints one signature and doc per function, with a game’s own added by --api', async () => {
    const w = workspace();
    const api = w.write('game-api.json', JSON.stringify(GAME_API));
    const { code, out } = await run('api', '--api', api);
    expect(code).toBe(0);
    expect(out).toContain('damage(target: entity, amount: number) → number\n');
    expect(out).toContain('shake(seconds: number) → nil\n    Shake the camera.');
  });

  it('escapes terminal control sequences in a declaration’s doc strings (issue 17)', async () => {
    const w = workspace();
    const doc = 'Rumble.\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\r\nnext\u009b1m \u202eevil\u2066';
    const api = w.write('game-api.json', JSON.stringify({ ...GAME_API, functions: [{ name: 'rumble', params: [], returns: 'nil', doc }] }));
    const { code, out } = await run('api', '--api', api);
    expect(code).toBe(0);
    expect(out).toContain('rumble() → nil\n    Rumble.\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\x0d\\x0anext\\x9b1m \\u202eevil\\u2066\n');
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    // --json keeps the text exactly (JSON escapes the controls itself).
    const json = await run('api', '--json', '--api', api);
    expect(JSON.parse(json.out).functions.at(-1).doc).toBe(doc);
  });
});

describe('--api game-api.json', () => {
  it('check knows the game’s functions: no warnings, and arity errors as for built-ins', async () => {
    const w = workspace();
    const api = w.write('game-api.json', JSON.stringify(GAME_API));
    const spell = w.write('quake.spell', SPELL);
    const without = await run('check', spell);
    expect(without.out).toContain("warning: Undefined variable 'shake'.");
    const withApi = await run('check', '--api', api, spell);
    expect(withApi.code).toBe(0);
    expect(withApi.out).toContain('0 errors, 0 warnings');
    const bad = w.write('bad.spell', 'spell s(c, t) { shake(); }');
    const arity = await run('check', '--api', api, bad);
    expect(arity.code).toBe(65);
    expect(arity.out).toContain('shake() expects 1 argument (seconds) but got 0.');
  });

  it('a game writes it from its own host list with hostApiDeclaration() (the package root exports it)', async () => {
    const w = workspace();
    const awardGold = worldHostFunction({
      name: 'awardGold',
      params: [
        { name: 'who', type: 'entity' },
        { name: 'amount', type: 'number', optional: true },
      ],
      returns: 'nil',
      doc: 'Add gold.',
      fuel: 10,
      impl: () => null,
    });
    const spell = w.write('loot.spell', 'spell loot(caster, target) { awardGold(target, 5); awardGold(caster); }');
    const own = w.write('game-api.json', JSON.stringify(hostApiDeclaration([awardGold])));
    const whole = w.write('whole-api.json', JSON.stringify(hostApiDeclaration(new World({ width: 10, height: 10, hosts: [awardGold] }).hosts)));
    for (const api of [own, whole]) {
      const checked = await run('check', '--api', api, spell);
      expect([checked.code, checked.out]).toEqual([0, 'checked 1 file: 0 errors, 0 warnings\n']);
    }
  });

  it('compile without it warns as check does, says to pass --api, and still writes the bytecode', async () => {
    const w = workspace();
    const api = w.write('game-api.json', JSON.stringify(GAME_API));
    const spell = w.write('quake.spell', SPELL);
    const spb = join(w.dir, 'quake.spb');
    const without = await run('compile', spell, '-o', spb);
    expect(without.code).toBe(0);
    expect(without.out).toBe('');
    expect(without.err).toContain("quake.spell:2:3: warning: Undefined variable 'shake'.");
    expect(without.err).toContain("note: 'shake', 'gold', 'title' are not a built-in and not declared in this file");
    expect(without.err).toContain('pass --api game-api.json');
    const check = await run('check', spell);
    expect(check.out).toContain("note: 'shake', 'gold', 'title' are not a built-in");
    const withApi = await run('compile', '--api', api, spell, '-o', spb);
    expect([withApi.code, withApi.err]).toEqual([0, '']);
  });

  it('compile and disasm use it; a .spb calling the game’s functions verifies only with it', async () => {
    const w = workspace();
    const api = w.write('game-api.json', JSON.stringify(GAME_API));
    const spell = w.write('quake.spell', SPELL);
    const spb = join(w.dir, 'quake.spb');
    expect((await run('compile', '--api', api, spell, '-o', spb)).code).toBe(0);
    const listing = await run('disasm', '--api', api, spb);
    expect(listing.code).toBe(0);
    expect(listing.out).toContain('<host shake>');
    expect((await run('check', '--api', api, spb)).code).toBe(0);
    const refused = await run('disasm', spb);
    expect(refused.code).toBe(65);
    expect(refused.err).toContain("The module calls host function 'shake', which this host does not provide.");
  });

  it('sim runs declared-only functions as no-ops that record a host-call event and return a neutral value', async () => {
    const w = workspace();
    const api = w.write('game-api.json', JSON.stringify(GAME_API));
    w.write('quake.spell', SPELL);
    w.write('breeds.json', JSON.stringify({ breeds: [{ name: 'Troll', health: 20 }] }));
    const scenario = w.write(
      'quake.json',
      JSON.stringify({
        world: { width: 20, height: 20 },
        breeds: 'breeds.json',
        spells: ['quake.spell'],
        entities: [
          { name: 'a', breed: 'Troll', x: 5, y: 5 },
          { name: 'b', breed: 'Troll', x: 6, y: 5 },
        ],
        casts: [{ tick: 1, spell: 'quake', caster: 'a', target: 'b' }],
        ticks: 3,
      }),
    );
    const { code, out } = await run('sim', '--api', api, scenario);
    expect(code).toBe(0);
    expect(out).toContain('[tick 1] Troll#1 calls shake(0.5) in quake');
    expect(out).toContain('[tick 1] Troll#1 calls gold(<Troll #2>) in quake');
    // Neutral results: gold() is 0, title() is "".
    expect(out).toContain('[tick 1] print: 1\n[tick 1] Troll#1 calls title(<Troll #2>) in quake\n[tick 1] print: !\n');
    expect(out).toContain('Troll#2 takes 3 damage');
    const json = await run('sim', '--json', '--api', api, scenario);
    expect(json.out).toContain('{"type":"host-call","tick":1,"name":"shake","args":["0.5"],"spell":"quake","caster":1}');
  });

  it('accepts the built-ins repeated exactly (a game’s whole published table), refuses changed ones and bad files', async () => {
    const w = workspace();
    const api = w.write('game-api.json', JSON.stringify(GAME_API));
    const full = w.write('full.json', (await run('api', '--json', '--api', api)).out);
    const spell = w.write('quake.spell', SPELL);
    expect((await run('check', '--api', full, spell)).code).toBe(0);
    const changed = { ...GAME_API, functions: [{ name: 'damage', params: [], returns: 'nil', doc: 'mine' }] };
    const collide = await run('check', '--api', w.write('collide.json', JSON.stringify(changed)), spell);
    expect(collide.code).toBe(65);
    expect(collide.err).toContain("Host function 'damage' collides with the built-in 'damage()'; give it another name.");
    const badType = { ...GAME_API, functions: [{ name: 'x', params: [{ name: 'a', type: 'float' }], returns: 'nil', doc: '' }] };
    const typed = await run('check', '--api', w.write('bad.json', JSON.stringify(badType)), spell);
    expect(typed.code).toBe(65);
    expect(typed.err).toContain('functions/0/params/0/type must be one of number, string, bool, list, entity, function, any, nil.');
    const syntax = await run('check', '--api', w.write('syntax.json', '{"format": '), spell);
    expect(syntax.code).toBe(65);
    expect(syntax.err).toMatch(/syntax\.json: JSON syntax error at line 1, column \d+/);
    const wrongFormat = await run('check', '--api', w.write('breeds.json', '{"breeds": []}'), spell);
    expect(wrongFormat.err).toContain("breeds.json: the top level: missing field 'format'.");
    expect((await run('check', '--api', join(w.dir, 'missing.json'), spell)).code).toBe(66);
  });
});
