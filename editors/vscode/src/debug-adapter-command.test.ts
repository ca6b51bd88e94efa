/**
 * The VS Code extension starts the real debug adapter (needs `npm run build`
 * first): the command its own code gives for `cantrip dap`, in a project
 * that installed the package, talked to over stdio as VS Code does.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DapClient, REPO } from '../../../tests/dap/dap-client.js';
import { debugAdapterCommand } from './debug-adapter-command.js';
import { DEBUG_ADAPTER, locateProgram } from './server-location.js';
import { workspaceSearch } from './server-session.test-helper.js';

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cantrip-dap-launch-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'cantrip-lang'), 'dir');
  writeFileSync(join(project, 'hello.spell'), 'var who = "world";\nprint "hello " + who;\n');
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the VS Code extension starts the real debug adapter', () => {
  it('runs `cantrip dap` from the package it finds, and debugs a spell file with it', async () => {
    const found = locateProgram(DEBUG_ADAPTER, workspaceSearch(project));
    expect(found.launch).toEqual({ source: 'workspace', kind: 'script', path: join(project, 'node_modules', 'cantrip-lang', 'bin', 'cantrip.js') });
    const command = debugAdapterCommand(found.launch, process.execPath, process.platform);
    expect(command.args.at(-1)).toBe('dap');
    const client = new DapClient(project, command);
    try {
      const program = join(project, 'hello.spell');
      await client.launch({ program }, { [program]: [2] });
      await client.event('stopped');
      expect((await client.topFrame()).line).toBe(2);
      await client.request('continue', { threadId: 1 });
      expect((await client.event('exited')).body.exitCode).toBe(0);
      expect(client.output('stdout')).toBe('hello world\n');
    } finally {
      await client.close();
    }
  });

  it('a Windows .cmd launcher goes through cmd.exe (a debug adapter is spawned without a shell)', () => {
    const command = debugAdapterCommand({ source: 'setting', kind: 'executable', path: 'C:\\npm\\cantrip.cmd' }, 'node', 'win32');
    expect(command).toEqual({ command: 'cmd.exe', args: ['/d', '/c', 'C:\\npm\\cantrip.cmd', 'dap'], env: {}, shell: false });
  });
});
