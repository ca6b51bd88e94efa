/**
 * How the extension starts `cantrip dap`, with no VS Code in sight (so the
 * tests can run it): the command server-location.ts gives for the debug
 * adapter, without a shell, since VS Code spawns a debug adapter without one.
 */
import { DEBUG_ADAPTER, programCommand, type ProgramCommand, type ProgramLaunch } from './server-location.js';

export function debugAdapterCommand(launch: ProgramLaunch, nodePath: string, platform: NodeJS.Platform): ProgramCommand {
  const command = programCommand(DEBUG_ADAPTER, launch, nodePath, platform);
  // A Windows .cmd launcher goes through cmd.exe itself.
  if (command.shell) return { command: 'cmd.exe', args: ['/d', '/c', launch.path, ...command.args], env: command.env, shell: false };
  return command;
}
