/**
 * The `cantrip` the extension carries: the CLI with only the two commands the
 * editor starts — `cantrip lsp` (the language server, `dist/cantrip.js lsp
 * --stdio`) and `cantrip dap` (the debug adapter, `dist/cantrip.js dap`) —
 * bundled by build.mjs with everything they use (the compiler, the language
 * service, the VM's debugger, the world runtime, vscode-languageserver,
 * @vscode/debugadapter) into dist/cantrip.js. One program rather than one
 * per command: the two share nearly all their code, and a bundle each
 * carried it twice. It works in any folder — no cantrip-lang installed, no
 * `node` on PATH (it runs on VS Code's own Node, as server-location.ts says).
 *
 * The command line is the one `cantrip` takes, parsed, answered and failed by
 * the CLI's own runProgram, so the bundled program behaves as the installed
 * CLI does and every way the client starts a program is the same.
 */
import type { CliIO } from '../../../bin/io.js';
import { dapCommand } from '../../../bin/commands/dap.js';
import { lspCommand } from '../../../bin/commands/lsp.js';
import { runProgram } from '../../../bin/program.js';

// A protocol server owns standard output; it writes there only through its connection.
const io: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

void runProgram([lspCommand, dapCommand], process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
});
