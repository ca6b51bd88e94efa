/**
 * The debug adapter the extension carries: `cantrip dap` and nothing else of
 * the CLI, bundled by build.mjs with everything it uses (the compiler, the
 * VM's debugger, the world runtime, @vscode/debugadapter) into dist/dap.js,
 * so the `cantrip` debug type works in any folder, as src/server.ts does for
 * the language server. It takes the command line `cantrip` takes (`dap`).
 */
import { dapCommand } from '../../../bin/commands/dap.js';
import { runBundledCommand } from './bundled-command.js';

runBundledCommand(dapCommand);
