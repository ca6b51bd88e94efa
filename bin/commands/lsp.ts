/**
 * `cantrip lsp [--stdio]`: the language server, over standard input and
 * output (the only transport; `--stdio` is accepted because editors pass
 * it). Runs until the client says exit or closes the stream.
 */
import type { Command } from 'commander';
import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import type { CliCommand, CommandContext } from '../command.js';
import { startLanguageServer } from '../lsp/server.js';

export const lspCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('lsp')
      .description('start the language server (Language Server Protocol over stdin/stdout) for editors')
      .option('--stdio', 'talk over standard input and output (the default and only transport)')
      .action(async () => {
        // Whatever a bug throws outside a request must not end the editor's session: log it and go on.
        process.on('uncaughtException', (error) => process.stderr.write(`cantrip lsp: ${error.stack ?? error.message}\n`));
        const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
        startLanguageServer(connection, context.io);
        await new Promise<void>((resolve) => connection.onExit(resolve));
      });
  },
};
