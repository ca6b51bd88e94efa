/**
 * The VS Code extension starts the real server (needs `npm run build`
 * first): its own code (server-location.ts) finds `cantrip lsp` in a
 * project that installed the package, and the test starts it with the
 * command that code gives plus what vscode-languageclient appends, then
 * talks to it over stdio as the client would. (The server bundled into the
 * extension is tested the same way, from the .vsix, in vsix.test.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, REPO } from '../../../tests/lsp/lsp-client.js';
import { LANGUAGE_SERVER, locateProgram, programCommand } from './server-location.js';
import { expectWorkingSession, workspaceSearch, writeGameProject } from './server-session.test-helper.js';


let project: string;

beforeAll(() => {
  // A game's project: the package installed (as a link to this checkout), spells beside a cantrip.json.
  project = mkdtempSync(join(tmpdir(), 'cantrip-launch-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'cantrip-lang'), 'dir');
  writeGameProject(project);
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the VS Code extension starts the real server', () => {
  it("finds it in the workspace's node_modules and talks to it as vscode-languageclient does", async () => {
    const found = locateProgram(LANGUAGE_SERVER, workspaceSearch(project));
    expect(found.launch).toEqual({ source: 'workspace', kind: 'script', path: join(project, 'node_modules', 'cantrip-lang', 'bin', 'cantrip.js') });
    const command = programCommand(LANGUAGE_SERVER, found.launch, process.execPath, process.platform);
    // vscode-languageclient appends `--stdio` to an Executable's arguments for TransportKind.stdio.
    const client = new LspClient(project, { command: command.command, args: [...command.args, '--stdio'], env: command.env });
    try {
      await expectWorkingSession(client, project);
    } finally {
      await client.stop();
    }
  });
});
