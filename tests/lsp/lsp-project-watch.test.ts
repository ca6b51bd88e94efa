/**
 * Editing the project's files re-checks the open spells (needs `npm run
 * build` first): a client that can register file watchers is asked to watch
 * every cantrip.json and the breeds and API files they name, and its
 * `workspace/didChangeWatchedFiles` notification re-publishes diagnostics of
 * every open spell without an edit to it. A client that cannot is asked for
 * nothing, and the change is seen at its next edit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LspClient } from './lsp-client.js';

const apiWith = (...names: string[]) =>
  JSON.stringify({ format: 'cantrip-host-api', version: 1, functions: names.map((name) => ({ name, params: [{ name: 'target', type: 'entity' }], returns: 'nil', doc: 'A game function.' })) });
const BREEDS = JSON.stringify({ breeds: [{ name: 'Troll', attributes: { wisdom: 2 } }] });
const SPELL = 'spell gift(caster, target) {\n  giveGold(target);\n  print caster.wisdom;\n}\n';

let dir: string;
let client: LspClient | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cantrip-lsp-watch-'));
  writeFileSync(join(dir, 'cantrip.json'), JSON.stringify({ breeds: 'data-breeds.json', api: 'game-api.json' }));
  writeFileSync(join(dir, 'game-api.json'), apiWith('giveGold'));
  writeFileSync(join(dir, 'data-breeds.json'), BREEDS);
});

afterEach(async () => {
  await client?.stop();
  client = null;
  rmSync(dir, { recursive: true, force: true });
});

const messages = (d: { diagnostics: { message: string }[] }) => d.diagnostics.map((x) => x.message);

describe('cantrip lsp watches the project files', () => {
  it('registers watchers for cantrip.json, the breeds and the API file, and re-checks open spells when they change', async () => {
    client = new LspClient(dir);
    await client.initialize(pathToFileURL(dir).href, { workspace: { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } } });
    const uri = pathToFileURL(join(dir, 'gift.spell')).href;
    expect(messages(await client.open(uri, SPELL))).toEqual([]);

    const watched = () =>
      client!.registrations
        .filter((r) => r.method === 'workspace/didChangeWatchedFiles')
        .flatMap((r) => (r.registerOptions as { watchers: { globPattern: string | { baseUri: string; pattern: string } }[] }).watchers.map((w) => w.globPattern));
    await expect.poll(watched).toEqual(
      expect.arrayContaining([
        '**/cantrip.json',
        { baseUri: pathToFileURL(dir).href, pattern: 'game-api.json' },
        { baseUri: pathToFileURL(dir).href, pattern: 'data-breeds.json' },
      ]),
    );

    // The game's API loses giveGold: the open spell is re-checked with no edit to it.
    writeFileSync(join(dir, 'game-api.json'), apiWith('takeGold'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'game-api.json')).href, type: 2 }] });
    // Published again for the same version (the text did not change).
    await expect.poll(() => messages(client!.lastPublished(uri)!)).toEqual(["Undefined variable 'giveGold'."]);

    // The breeds lose wisdom: the breed-aware warning appears.
    writeFileSync(join(dir, 'data-breeds.json'), JSON.stringify({ breeds: [{ name: 'Troll', attributes: { wisdon: 2 } }] }));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'data-breeds.json')).href, type: 2 }] });
    await expect.poll(() => messages(client!.lastPublished(uri)!)).toEqual(["Undefined variable 'giveGold'.", "No breed has a property 'wisdom'; did you mean 'wisdon'?"]);
  });

  it('names files by their name alone for a client without relative patterns', async () => {
    client = new LspClient(dir);
    await client.initialize(pathToFileURL(dir).href, { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } });
    await client.open(pathToFileURL(join(dir, 'gift.spell')).href, SPELL);
    await expect
      .poll(() => client!.registrations.flatMap((r) => (r.registerOptions as { watchers: { globPattern: unknown }[] }).watchers.map((w) => w.globPattern)))
      .toEqual(expect.arrayContaining(['**/cantrip.json', '**/game-api.json', '**/data-breeds.json']));
  });

  it('asks a client without the capability for nothing, and sees the change at the next edit', async () => {
    client = new LspClient(dir);
    await client.initialize(pathToFileURL(dir).href);
    const uri = pathToFileURL(join(dir, 'gift.spell')).href;
    expect(messages(await client.open(uri, SPELL))).toEqual([]);
    writeFileSync(join(dir, 'game-api.json'), apiWith('takeGold'));
    const edited = await client.change(uri, 2, [{ text: SPELL + '\n' }]);
    expect(messages(edited)).toEqual(["Undefined variable 'giveGold'."]);
    expect(client.registrations).toEqual([]);
  });
});
