/**
 * What the extension needs of any server it starts, checked the way VS Code
 * would use it: a game's project (spells beside a cantrip.json naming a
 * breeds file), and a session over stdio — initialize, open a spell, its
 * breed-aware diagnostics, hover, completion, formatting, then shutdown and
 * exit. Shared by the test of the project's own server (server-launch.test.ts)
 * and that of the server bundled into the .vsix (vsix.test.ts).
 */
import { mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { LspClient } from '../../../tests/lsp/lsp-client.js';
import type { SearchInputs } from './server-location.js';

/** Writes spells/cantrip.json and the breeds it names (trolls have wisdom) into `project`. */
export function writeGameProject(project: string): void {
  mkdirSync(join(project, 'spells'), { recursive: true });
  writeFileSync(join(project, 'spells', 'cantrip.json'), JSON.stringify({ breeds: 'breeds.json' }));
  writeFileSync(join(project, 'spells', 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Troll', health: 30, attributes: { wisdom: 2 } }] }));
}

/** Drives a started server through a session on a spell of `project` (see writeGameProject), ending with its clean exit. */
export async function expectWorkingSession(client: LspClient, project: string): Promise<void> {
  const init = await client.initialize(pathToFileURL(project).href);
  expect(init.capabilities).toMatchObject({ completionProvider: expect.anything(), hoverProvider: true, documentFormattingProvider: true });
  const uri = pathToFileURL(join(project, 'spells', 'zap.spell')).href;
  const text = 'spell zap(caster, target) {\n    damage(target, caster.wisdm);\n}\n';
  const published = await client.open(uri, text);
  // The breeds of the cantrip.json beside the spell are read: a misspelt property is named with the nearest.
  expect(published.diagnostics.map((d) => d.message).join('\n')).toMatch(/wisdm.*wisdom/s);
  const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 6 } });
  expect(hover?.contents.value).toMatch(/damage/);
  const items = await client.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 4 } });
  expect(items.map((i) => i.label)).toContain('damage');
  const edits = await client.request<{ newText: string }[]>('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
  expect(edits.map((e) => e.newText).join('')).toContain('  damage(target, caster.wisdm);');
  await client.connection.sendRequest('shutdown');
  await client.connection.sendNotification('exit');
  expect(await client.exit).toBe(0);
}

/** What the extension searches with in a trusted workspace of `project` (which has the package in its node_modules), no setting, nothing bundled, nothing on PATH. */
export function workspaceSearch(project: string): SearchInputs {
  return {
    setting: undefined,
    workspaceFolders: [project],
    workspaceTrusted: true,
    extensionPath: join(project, 'no-extension-here'),
    env: { PATH: '' },
    platform: process.platform,
    homeDir: homedir(),
    isFile: (f) => statSync(f, { throwIfNoEntry: false })?.isFile() ?? false,
    isDirectory: (d) => statSync(d, { throwIfNoEntry: false })?.isDirectory() ?? false,
    realPath: realpathSync,
  };
}
