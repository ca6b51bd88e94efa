/**
 * The `cantrip` debug type: VS Code starts `cantrip dap` (the Debug Adapter
 * Protocol on stdio) from the same `cantrip` it runs `cantrip lsp` from —
 * found by the extension's server search (the setting, the workspace's
 * package, PATH) — and F5 on a .spell file with no launch.json debugs that
 * file's top-level script.
 */
import * as vscode from 'vscode';
import { debugAdapterCommand } from './debug-adapter-command.js';
import type { ServerSearch } from './server-location.js';

export const DEBUG_TYPE = 'cantrip';

/** Registers the adapter and the configuration F5 uses without a launch.json; `findServer` is the extension's own search. */
export function registerDebugAdapter(findServer: () => ServerSearch): vscode.Disposable[] {
  const factory: vscode.DebugAdapterDescriptorFactory = {
    createDebugAdapterDescriptor(session) {
      const search = findServer();
      // Thrown, VS Code shows the message and does not start the session.
      if (search.launch === null) throw new Error(`Cantrip: cannot debug: ${search.problem}`);
      const command = debugAdapterCommand(search.launch, process.execPath, process.platform);
      // In the session's workspace folder, so a launch configuration's relative paths read from there.
      const cwd = session.workspaceFolder?.uri.scheme === 'file' ? session.workspaceFolder.uri.fsPath : undefined;
      return new vscode.DebugAdapterExecutable(command.command, [...command.args], { env: { ...process.env, ...command.env } as Record<string, string>, ...(cwd ? { cwd } : {}) });
    },
  };
  const configurations: vscode.DebugConfigurationProvider = {
    resolveDebugConfiguration(_folder, config) {
      if (config.type !== undefined || config.request !== undefined || config.name !== undefined) return config;
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.languageId !== 'cantrip') return config;
      return { type: DEBUG_TYPE, request: 'launch', name: 'Debug this spell file', program: editor.document.uri.fsPath };
    },
  };
  return [vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, factory), vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, configurations)];
}
