/**
 * The Cantrip extension's client: starts `cantrip lsp --stdio` (the one
 * server-location.ts chooses: the setting's, the project's own, or the one
 * bundled with the extension) with vscode-languageclient for .spell files,
 * restarts it when its setting, the workspace folders or the workspace's
 * trust change, and says clearly when the setting names nothing runnable.
 * The `cantrip` debug type (debug-adapter.ts) starts `cantrip dap` from the
 * same place, found by the same search when a session starts.
 * Highlighting and the language configuration are declarative
 * (package.json) and work with or without a server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerDebugAdapter } from './debug-adapter.js';
import { DEBUG_ADAPTER, LANGUAGE_SERVER, locateProgram, programCommand, SERVER_PACKAGE, type CantripProgram, type ProgramLaunch, type ProgramSearch } from './server-location.js';

const LANGUAGE_ID = 'cantrip';
const SETTING = 'cantrip.server.path';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
/** The extension's folder: the bundled `cantrip` is in its dist/, beside the client (build.mjs writes them). */
let extensionPath = '';
/** Restarts are chained so two quick configuration changes never run two servers. */
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
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
    ...registerDebugAdapter(findDebugAdapter),
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

/** Where `program` runs from: the language server and the debug adapter (`cantrip dap`) are found by the same search. */
function findProgram(program: CantripProgram): ProgramSearch {
  return locateProgram(program, {
    setting: vscode.workspace.getConfiguration().get<string>(SETTING),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    workspaceTrusted: vscode.workspace.isTrusted,
    extensionPath,
    env: process.env,
    platform: process.platform,
    homeDir: os.homedir(),
    isFile: (file) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false,
    isDirectory: (dir) => fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false,
    realPath: (file) => fs.realpathSync(file),
  });
}

/** The debug adapter a debug session starts, said in the output (a setting passed over was already said when the server started). */
function findDebugAdapter(): ProgramLaunch {
  const search = findProgram(DEBUG_ADAPTER);
  if (search.problem !== undefined) output?.warn(search.problem);
  output?.info(`Starting the Cantrip debug adapter (${describe(search.launch)}): ${search.launch.path}`);
  return search.launch;
}

async function start(): Promise<void> {
  const search = findProgram(LANGUAGE_SERVER);
  const launch = search.launch;
  output?.info(`Looked for the language server in:\n${search.searched.map((s) => `  ${s}`).join('\n')}`);
  if (search.problem !== undefined) {
    output?.warn(search.problem);
    void explainUnusableSetting(search.problem, launch);
  }
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
        `Cantrip: the language server ${describe(launch)} (${launch.path}) did not start (${reason}).` +
          (launch.source === 'bundled' ? '' : ` It needs a ${SERVER_PACKAGE} with the \`cantrip lsp\` command.`),
        'Show Output',
      )
      .then((choice) => choice && output?.show());
  }
}

function serverOptions(launch: ProgramLaunch): ServerOptions {
  const command = programCommand(LANGUAGE_SERVER, launch, process.execPath, process.platform);
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

function describe(launch: ProgramLaunch): string {
  if (launch.source === 'setting') return `from the ${SETTING} setting`;
  if (launch.source === 'workspace') return `from the workspace's ${SERVER_PACKAGE} package`;
  return 'bundled with the extension';
}

async function explainUnusableSetting(problem: string, instead: ProgramLaunch): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    `Cantrip: ${problem} Using the language server ${describe(instead)} instead.`,
    'Open Settings',
    'Show Output',
  );
  if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', SETTING);
  else if (choice === 'Show Output') output?.show();
}
