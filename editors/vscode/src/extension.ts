/**
 * The Cantrip extension's client: starts `cantrip lsp --stdio` (found by
 * server-location.ts) with vscode-languageclient for .spell files, restarts
 * it when its setting, the workspace folders or the workspace's trust change,
 * and says clearly what to do when no server can be found. Highlighting and
 * the language configuration are declarative (package.json) and work with
 * or without a server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerDebugAdapter } from './debug-adapter.js';
import { locateServer, serverCommand, SERVER_PACKAGE, type ServerLaunch, type ServerSearch } from './server-location.js';

const LANGUAGE_ID = 'cantrip';
const SETTING = 'cantrip.server.path';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
/** Restarts are chained so two quick configuration changes never run two servers. */
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Cantrip', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('cantrip.restartServer', () => restart()),
    vscode.commands.registerCommand('cantrip.showOutput', () => output?.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTING)) void restart();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => restart()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart()),
    ...registerDebugAdapter(findServer),
  );
  return restart();
}

export function deactivate(): Promise<void> {
  return (pending = pending.then(stop));
}

function restart(): Promise<void> {
  pending = pending.then(stop).then(start, start);
  return pending;
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) await running.stop().catch(() => undefined);
}

/** Where `cantrip` is: the language server and the debug adapter (`cantrip dap`) run from the same one. */
function findServer(): ServerSearch {
  return locateServer({
    setting: vscode.workspace.getConfiguration().get<string>(SETTING),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    workspaceTrusted: vscode.workspace.isTrusted,
    env: process.env,
    platform: process.platform,
    homeDir: os.homedir(),
    isFile: (file) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false,
    isDirectory: (dir) => fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false,
    realPath: (file) => fs.realpathSync(file),
  });
}

async function start(): Promise<void> {
  const search = findServer();
  if (search.launch === null) {
    output?.warn(`${search.problem}\nSearched:\n${search.searched.map((s) => `  ${s}`).join('\n')}`);
    void explainMissingServer(search.problem);
    return;
  }
  const launch = search.launch;
  output?.info(`Starting the Cantrip language server (${describe(launch)}): ${launch.path}`);
  const next = new LanguageClient(LANGUAGE_ID, 'Cantrip', serverOptions(launch), clientOptions());
  try {
    await next.start();
    client = next;
  } catch (error) {
    await next.dispose().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    output?.error(`The language server did not start: ${reason}`);
    void vscode.window
      .showErrorMessage(
        `Cantrip: the language server at ${launch.path} did not start (${reason}). It needs a ${SERVER_PACKAGE} with the \`cantrip lsp\` command.`,
        'Show Output',
      )
      .then((choice) => choice && output?.show());
  }
}

function serverOptions(launch: ServerLaunch): ServerOptions {
  const command = serverCommand(launch, process.execPath, process.platform);
  return {
    command: command.command,
    args: [...command.args],
    transport: TransportKind.stdio,
    options: { env: { ...process.env, ...command.env }, shell: command.shell },
  };
}

function clientOptions(): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
    ],
    // cantrip.json and the breeds and API files it names are JSON: the server re-reads them when they change.
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.json') },
    outputChannel: output,
  };
}

function describe(launch: ServerLaunch): string {
  if (launch.source === 'setting') return `from the ${SETTING} setting`;
  if (launch.source === 'workspace') return `from the workspace's ${SERVER_PACKAGE} package`;
  return 'from PATH';
}

async function explainMissingServer(problem: string): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    `Cantrip: ${problem} Highlighting works without it; for diagnostics, completion and the rest, ` +
      `run \`npm install --save-dev ${SERVER_PACKAGE}\` in the workspace (or \`npm install -g ${SERVER_PACKAGE}\`), ` +
      `or set ${SETTING}.`,
    'Open Settings',
    'Show Output',
  );
  if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', SETTING);
  else if (choice === 'Show Output') output?.show();
}
