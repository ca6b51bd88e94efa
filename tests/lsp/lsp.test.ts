/**
 * The language server as an editor runs it: `node bin/cantrip.js lsp
 * --stdio` (needs `npm run build` first), driven by a real JSON-RPC client.
 * Every request the server offers, cantrip.json (found, invalid, changed on
 * disk), and hostile input that must never take the server down.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, type PublishedDiagnostics } from './lsp-client.js';

const BREEDS = { breeds: [{ name: 'Troll', health: 30, attributes: { wisdom: 2 } }, { name: 'Troll Archer', parent: 'Troll', attributes: { wisdom: 3, range: 8 } }] };
const API = { format: 'cantrip-host-api', version: 1, functions: [{ name: 'giveGold', params: [{ name: 'target', type: 'entity' }, { name: 'amount', type: 'number' }], returns: 'number', doc: 'Put gold in a purse.' }] };

const SPELL = [
  'spell fireball(caster, target) {', // 0
  '  var dmg = 10 + caster.wisdom / 2;', // 1
  '  damage(target, dmg);', // 2
  '  giveGold(caster, 5);', // 3
  '  print caster.wisdm;', // 4
  '}', // 5
  '', // 6
].join('\n');

let dir: string;
let client: LspClient;
let uri: string;
const pos = (line: number, character: number) => ({ line, character });
const at = (line: number, needle: string, extra = 0) => pos(line, SPELL.split('\n')[line]!.indexOf(needle) + extra);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cantrip-lsp-'));
  writeFileSync(join(dir, 'cantrip.json'), JSON.stringify({ breeds: 'breeds.json', api: 'api.json' }));
  writeFileSync(join(dir, 'breeds.json'), JSON.stringify(BREEDS));
  writeFileSync(join(dir, 'api.json'), JSON.stringify(API));
  writeFileSync(join(dir, 'other.spell'), 'spell frostbolt(caster, target) {}\n');
  uri = pathToFileURL(join(dir, 'fire.spell')).href;
  client = new LspClient(dir);
  await client.initialize(pathToFileURL(dir).href);
});

afterAll(async () => {
  await client?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('cantrip lsp', () => {
  let first: PublishedDiagnostics;

  it('diagnoses on open against the cantrip.json breeds and API, with exact ranges', async () => {
    first = await client.open(uri, SPELL);
    expect(first.diagnostics).toEqual([
      expect.objectContaining({ message: "No breed has a property 'wisdm'; did you mean 'wisdom'?", severity: 2, range: { start: at(4, 'wisdm'), end: at(4, 'wisdm', 5) } }),
    ]);
  });

  it('re-diagnoses after an edit: syntax, arity and literal-type errors', async () => {
    const edited = await client.change(uri, 2, [{ range: { start: at(2, 'dmg'), end: at(2, 'dmg', 3) }, text: '"lots", 3' }]);
    const messages = edited.diagnostics.map((d) => d.message);
    expect(messages).toContain('damage() expects 2 arguments (target, amount) but got 3.');
    const syntax = await client.change(uri, 3, [{ text: 'var = 1;\nsound(3);\n' }]);
    await client.change(uri, 4, [{ text: SPELL }]);
    expect(syntax.diagnostics.map((d) => d.message)).toEqual(['Expect variable name.', 'Argument 1 of sound() must be a string.']);
  });

  it('completes entity properties after caster., scope names and host functions elsewhere', async () => {
    const members = await client.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri }, position: at(1, 'wisdom') });
    expect(members.map((c) => c.label)).toEqual(expect.arrayContaining(['wisdom', 'range', 'health', 'x']));
    expect(members.map((c) => c.label)).not.toContain('append');
    const names = await client.request<{ label: string; insertText: string; insertTextFormat: number }[]>('textDocument/completion', { textDocument: { uri }, position: pos(2, 2) });
    expect(names.map((c) => c.label)).toEqual(expect.arrayContaining(['dmg', 'caster', 'fireball', 'damage', 'giveGold', 'while']));
    expect(names.find((c) => c.label === 'giveGold')).toMatchObject({ insertText: 'giveGold(${1:target}, ${2:amount})', insertTextFormat: 2 });
  });

  it('hovers a host function, a breed property and a variable', async () => {
    const hover = (p: { line: number; character: number }) => client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: p });
    expect((await hover(at(3, 'giveGold', 2)))!.contents.value).toContain('giveGold(target: entity, amount: number) -> number');
    expect((await hover(at(1, 'wisdom', 1)))!.contents.value).toMatch(/Troll = `2`[\s\S]*Troll Archer = `3`/);
    expect((await hover(at(2, 'dmg')))!.contents.value).toContain('var dmg = 10 + caster.wisdom / 2;');
  });

  it('gives signature help inside a call', async () => {
    const help = await client.request<{ signatures: { label: string }[]; activeParameter: number }>('textDocument/signatureHelp', { textDocument: { uri }, position: at(2, 'dmg') });
    expect(help).toMatchObject({ signatures: [{ label: 'damage(target: entity, amount: number) -> number' }], activeParameter: 1 });
  });

  it('goes to the definition and finds references', async () => {
    expect(await client.request('textDocument/definition', { textDocument: { uri }, position: at(2, 'dmg') })).toEqual([{ uri, range: { start: at(1, 'dmg'), end: at(1, 'dmg', 3) } }]);
    const refs = await client.request<unknown[]>('textDocument/references', { textDocument: { uri }, position: at(0, 'caster'), context: { includeDeclaration: true } });
    expect(refs).toHaveLength(4);
  });

  it('renames a parameter, and refuses host functions and keywords with a message', async () => {
    expect(await client.request('textDocument/prepareRename', { textDocument: { uri }, position: at(0, 'caster') })).toEqual({ range: { start: at(0, 'caster'), end: at(0, 'caster', 6) }, placeholder: 'caster' });
    const edit = await client.request<{ changes: Record<string, unknown[]> }>('textDocument/rename', { textDocument: { uri }, position: at(0, 'caster'), newName: 'wizard' });
    expect(edit.changes[uri]).toHaveLength(4);
    await expect(client.request('textDocument/prepareRename', { textDocument: { uri }, position: at(2, 'damage') })).rejects.toThrow(/host function/);
    await expect(client.request('textDocument/prepareRename', { textDocument: { uri }, position: at(0, 'spell') })).rejects.toThrow(/keyword/);
    await expect(client.request('textDocument/rename', { textDocument: { uri }, position: at(2, 'damage'), newName: 'hurt' })).rejects.toThrow(/host function/);
  });

  it('lists document and workspace symbols (files on disk too)', async () => {
    const symbols = await client.request<{ name: string; kind: number }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols.map((s) => s.name)).toEqual(['fireball']);
    const found = await client.request<{ name: string; location: { uri: string } }[]>('workspace/symbol', { query: 'bolt' });
    expect(found.map((s) => [s.name, s.location.uri.endsWith('other.spell')])).toEqual([['frostbolt', true]]);
  });

  it('answers semantic tokens, folding ranges and the "did you mean" quick fix', async () => {
    const tokens = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri } });
    expect(tokens.data.length % 5).toBe(0);
    expect(tokens.data.length).toBeGreaterThan(50);
    expect(await client.request('textDocument/foldingRange', { textDocument: { uri } })).toEqual([{ startLine: 0, endLine: 4, kind: 'region' }]);
    const actions = await client.request<{ title: string; edit: { changes: Record<string, { newText: string }[]> } }[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: at(4, 'wisdm'), end: at(4, 'wisdm') },
      context: { diagnostics: first.diagnostics },
    });
    expect(actions.map((a) => [a.title, a.edit.changes[uri]![0]!.newText])).toEqual([["Change to 'wisdom'", 'wisdom']]);
  });

  it('keeps the breed-aware warning and its quick fix while another spell has a half-typed `caster.`', async () => {
    const typing = pathToFileURL(join(dir, 'typing.spell')).href;
    const text = 'spell first(caster) {\n  caster.\n}\n' + SPELL;
    const published = await client.open(typing, text);
    expect(published.diagnostics.map((d) => d.message)).toEqual(["Expect property name after '.'.", "No breed has a property 'wisdm'; did you mean 'wisdom'?"]);
    const completion = await client.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri: typing }, position: pos(1, 9) });
    expect(completion.map((c) => c.label)).toContain('wisdom');
    const actions = await client.request<{ title: string }[]>('textDocument/codeAction', {
      textDocument: { uri: typing },
      range: { start: pos(7, 16), end: pos(7, 16) },
      context: { diagnostics: published.diagnostics },
    });
    expect(actions.map((a) => a.title)).toEqual(["Change to 'wisdom'"]);
  });

  it('formats the document, and refuses text with syntax errors', async () => {
    const messy = pathToFileURL(join(dir, 'messy.spell')).href;
    await client.open(messy, 'spell s(c,t){damage(t,1);}');
    const edits = await client.request<{ newText: string }[]>('textDocument/formatting', { textDocument: { uri: messy }, options: { tabSize: 2, insertSpaces: true } });
    expect(edits.map((e) => e.newText)).toEqual(['spell s(c, t) {\n  damage(t, 1);\n}\n']);
    await client.change(messy, 2, [{ text: 'var = ;' }]);
    await expect(client.request('textDocument/formatting', { textDocument: { uri: messy }, options: { tabSize: 2, insertSpaces: true } })).rejects.toThrow(/syntax errors/);
  });

  it('picks up a changed breeds file without a restart', async () => {
    writeFileSync(join(dir, 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Troll', attributes: { wisdom: 2, wisdm: 1 } }] }));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'breeds.json')).href, type: 2 }] });
    const again = await client.change(uri, 5, [{ text: SPELL + '\n' }]);
    expect(again.diagnostics).toEqual([]);
    writeFileSync(join(dir, 'breeds.json'), JSON.stringify(BREEDS));
  });

  it('reports an invalid cantrip.json as a diagnostic on the file, and recovers when it is fixed', async () => {
    writeFileSync(join(dir, 'cantrip.json'), '{ "breeds": 3 }');
    const broken = await client.change(uri, 6, [{ text: SPELL }]);
    expect(broken.diagnostics[0]).toMatchObject({ severity: 1, range: { start: pos(0, 0) }, message: expect.stringMatching(/cantrip\.json: 'breeds' must be a path or a list of paths/) });
    writeFileSync(join(dir, 'cantrip.json'), JSON.stringify({ breeds: 'missing.json', api: 'api.json' }));
    const missing = await client.change(uri, 7, [{ text: SPELL + ' ' }]);
    expect(missing.diagnostics[0]!.message).toMatch(/missing\.json/);
    writeFileSync(join(dir, 'cantrip.json'), JSON.stringify({ breeds: 'breeds.json', api: 'api.json' }));
    const fixed = await client.change(uri, 8, [{ text: SPELL }]);
    expect(fixed.diagnostics.map((d) => d.message)).toEqual(["No breed has a property 'wisdm'; did you mean 'wisdom'?"]);
  });
});

describe('cantrip lsp under hostile input', () => {
  it('survives a 5 MB file, a thousand errors, invalid UTF-8, positions past the end and garbage requests', async () => {
    const big = pathToFileURL(join(dir, 'big.spell')).href;
    const huge = await client.open(big, 'print 1;\n'.repeat(600_000));
    expect(huge.diagnostics[0]!.message).toMatch(/analyses files up to/);
    const errors = pathToFileURL(join(dir, 'errors.spell')).href;
    const many = await client.open(errors, 'var = ;\n'.repeat(1000) + '}}}}((((');
    expect(many.diagnostics.length).toBeGreaterThan(10);
    const odd = pathToFileURL(join(dir, 'odd.spell')).href;
    await client.open(odd, 'var s = "\uD800\uDFFF\uFFFE\u0000";\nprint s.');
    for (const method of ['textDocument/completion', 'textDocument/hover', 'textDocument/signatureHelp', 'textDocument/definition', 'textDocument/references', 'textDocument/documentHighlight']) {
      for (const target of [odd, errors, big, 'file:///never/opened.spell']) {
        await client.request(method, { textDocument: { uri: target }, position: pos(999_999, 999_999), context: { includeDeclaration: true } }).catch((e: Error) => e);
      }
    }
    await client.request('textDocument/rename', { textDocument: { uri: odd }, position: pos(-1, -1), newName: '' }).catch((e: Error) => e);
    await client.request('textDocument/hover', { textDocument: null, position: null }).catch((e: Error) => e);
    await client.request('no/such/method', {}).catch((e: Error) => e);
    // Bytes that are not UTF-8 inside a message's content.
    const body = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///bad.spell","languageId":"cantrip","version":1,"text":"print \\"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('\\";"}}}')]);
    client.writeRaw(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    // The server still answers, correctly.
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: at(2, 'damage', 1) });
    expect(hover!.contents.value).toContain('damage(target: entity, amount: number)');
    expect(client.exited).toBeNull();
    expect(client.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });
});
