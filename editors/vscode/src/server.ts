/**
 * The language server the extension carries: `cantrip lsp` and nothing else
 * of the CLI, bundled by build.mjs with everything it uses (the compiler, the
 * language service, vscode-languageserver) into dist/server.js, so the
 * extension works in any folder — no cantrip-lang installed, no `node` on
 * PATH (it runs on VS Code's own Node, as server-location.ts says).
 *
 * It takes the command line `cantrip` takes (`lsp --stdio`), so every way
 * the client starts a server is the same.
 */
import { lspCommand } from '../../../bin/commands/lsp.js';
import { runBundledCommand } from './bundled-command.js';

runBundledCommand(lspCommand);
