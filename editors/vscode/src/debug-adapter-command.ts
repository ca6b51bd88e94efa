/**
 * How the extension starts `cantrip dap`, with no VS Code in sight (so the
 * tests can run it): the language server's command (server-location.ts),
 * with `dap` in place of `lsp`.
 */
import { SERVER_ARGS, serverCommand, type ServerCommand, type ServerLaunch } from './server-location.js';

const ADAPTER_ARGS: readonly string[] = ['dap'];

export function debugAdapterCommand(launch: ServerLaunch, nodePath: string, platform: NodeJS.Platform): ServerCommand {
  const server = serverCommand(launch, nodePath, platform);
  const args = [...server.args.slice(0, server.args.length - SERVER_ARGS.length), ...ADAPTER_ARGS];
  // A debug adapter is spawned without a shell: a Windows .cmd launcher goes through cmd.exe itself.
  if (server.shell) return { command: 'cmd.exe', args: ['/d', '/c', launch.path, ...args], env: server.env, shell: false };
  return { ...server, args };
}
