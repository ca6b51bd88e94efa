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
import type { CliIO } from '../../../bin/io.js';
import { runProgram } from '../../../bin/program.js';

// The protocol owns standard output; the server writes there only through its connection.
const io: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

void runProgram([lspCommand], process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
});
