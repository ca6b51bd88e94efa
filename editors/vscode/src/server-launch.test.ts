/**
 * The VS Code extension starts the real server (needs `npm run build`
 * first): its own code (server-location.ts) finds `cantrip lsp` in a
 * project that installed the package, and the test starts it with the
 * command that code gives plus what vscode-languageclient appends, then
 * talks to it over stdio as the client would.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, REPO } from '../../../tests/lsp/lsp-client.js';
import { locateServer, serverCommand } from './server-location.js';

const isFile = (f: string) => statSync(f, { throwIfNoEntry: false })?.isFile() ?? false;
const isDirectory = (d: string) => statSync(d, { throwIfNoEntry: false })?.isDirectory() ?? false;

let project: string;

beforeAll(() => {
  // A game's project: the package installed (as a link to this checkout), spells beside a cantrip.json.
  project = mkdtempSync(join(tmpdir(), 'cantrip-launch-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'cantrip-lang'), 'dir');
  mkdirSync(join(project, 'spells'));
  writeFileSync(join(project, 'spells', 'cantrip.json'), JSON.stringify({ breeds: 'breeds.json' }));
  writeFileSync(join(project, 'spells', 'breeds.json'), JSON.stringify({ breeds: [{ name: 'Troll', health: 30, attributes: { wisdom: 2 } }] }));
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the VS Code extension starts the real server', () => {
  it("finds it in the workspace's node_modules and talks to it as vscode-languageclient does", async () => {
    const found = locateServer({
      setting: undefined,
      workspaceFolders: [project],
      workspaceTrusted: true,
      env: { PATH: '' },
      platform: process.platform,
      homeDir: homedir(),
      isFile,
      isDirectory,
      realPath: realpathSync,
    });
    expect(found.launch).toMatchObject({ source: 'workspace', kind: 'script', path: join(project, 'node_modules', 'cantrip-lang', 'bin', 'cantrip.js') });
    const command = serverCommand(found.launch!, process.execPath, process.platform);
    // vscode-languageclient appends `--stdio` to an Executable's arguments for TransportKind.stdio.
    const client = new LspClient(project, { command: command.command, args: [...command.args, '--stdio'], env: command.env });
    try {
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
    } finally {
      await client.stop();
    }
  });
});

