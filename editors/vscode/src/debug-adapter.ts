/**
 * The `cantrip` debug type: VS Code starts `cantrip dap` (the Debug Adapter
 * Protocol on stdio) from where the extension's search finds it — the
 * setting, the workspace's package, or the adapter bundled with the
 * extension (server-location.ts), as for the language server — and F5 on a
 * .spell file with no launch.json debugs that file's top-level script.
 */
import * as vscode from 'vscode';
import { debugAdapterCommand } from './debug-adapter-command.js';
import type { ProgramLaunch } from './server-location.js';

export const DEBUG_TYPE = 'cantrip';

/** Registers the adapter and the configuration F5 uses without a launch.json; `findAdapter` is the extension's own search, run as each session starts. */
export function registerDebugAdapter(findAdapter: () => ProgramLaunch): vscode.Disposable[] {
  const factory: vscode.DebugAdapterDescriptorFactory = {
    createDebugAdapterDescriptor(session) {
      const command = debugAdapterCommand(findAdapter(), process.execPath, process.platform);
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
