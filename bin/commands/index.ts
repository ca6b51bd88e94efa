/** Every CLI command, in the order `--help` lists them. Adding a command is one line here. */
import type { CliCommand } from '../command.js';
import { apiCommand } from './api.js';
import { checkCommand } from './check.js';
import { compileCommand } from './compile.js';
import { dapCommand } from './dap.js';
import { disasmCommand } from './disasm.js';
import { fmtCommand } from './fmt.js';
import { lspCommand } from './lsp.js';
import { runCommand } from './run.js';
import { simCommand } from './sim.js';
import { serveCommand } from './serve.js';

export const COMMANDS: readonly CliCommand[] = [runCommand, compileCommand, checkCommand, fmtCommand, disasmCommand, simCommand, serveCommand, apiCommand, lspCommand, dapCommand];
