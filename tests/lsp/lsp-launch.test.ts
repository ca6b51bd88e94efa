/**
 * `cantrip lsp` with the arguments LSP clients pass (needs `npm run build`
 * first) — `--clientProcessId`, `--socket`, `--node-ipc`, and ones the
 * server does not know. (How the VS Code extension finds and starts it:
 * editors/vscode/src/server-launch.test.ts.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { LspClient, REPO } from './lsp-client.js';

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cantrip-lsp-args-'));
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('cantrip lsp takes the arguments editors pass', () => {
  const launcher = join(REPO, 'bin', 'cantrip.js');

  it('ignores an argument it does not know (said on stderr) and serves on', async () => {
    const client = new LspClient(project, { command: process.execPath, args: [launcher, 'lsp', '--stdio', '--some-editor-flag'] });
    try {
      await client.initialize();
      expect(client.stderr).toMatch(/ignoring '--some-editor-flag'/);
    } finally {
      await client.stop();
    }
  });

  it('exits when the editor process named by --clientProcessId is gone', async () => {
    const editor = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const client = new LspClient(project, { command: process.execPath, args: [launcher, 'lsp', '--stdio', `--clientProcessId=${editor.pid}`] });
    try {
      await client.initialize();
      expect(client.exited).toBeNull();
      editor.kill('SIGKILL');
      // The library checks every 3 s; exit code 1: the editor went without a shutdown.
      expect(await client.exit).toBe(1);
    } finally {
      editor.kill('SIGKILL');
      await client.stop();
    }
  }, 20_000);

  it('connects to the editor over --socket', async () => {
    let accepted!: (socket: Socket) => void;
    const connected = new Promise<Socket>((resolve) => (accepted = resolve));
    const server = createServer((socket) => accepted(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const child = spawn(process.execPath, [launcher, 'lsp', `--socket=${port}`], { cwd: project, stdio: 'pipe' });
    try {
      const socket = await connected;
      const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
      connection.listen();
      const init = await connection.sendRequest<{ serverInfo: { name: string } }>('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
      expect(init.serverInfo.name).toBe('cantrip');
      connection.dispose();
    } finally {
      child.kill();
      server.close();
    }
  });

  it('refuses what it cannot do with a usage error, not a stack trace', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [launcher, 'lsp', ...args], { encoding: 'utf8', input: '' });
    const ipc = run('--node-ipc');
    expect(ipc.status).toBe(64);
    expect(ipc.stderr).toMatch(/--node-ipc needs an IPC channel/);
    const two = run('--stdio', '--socket=5000');
    expect(two.status).toBe(64);
    expect(two.stderr).toMatch(/choose one transport, not --stdio and --socket/);
    const port = run('--socket=http');
    expect(port.status).toBe(64);
    expect(port.stderr).toMatch(/--socket needs a TCP port/);
    const pid = run('--clientProcessId=abc');
    expect(pid.status).toBe(64);
    expect(pid.stderr).toMatch(/--clientProcessId needs a process id/);
    for (const r of [ipc, two, port, pid]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
