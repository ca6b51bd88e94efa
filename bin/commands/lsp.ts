/**
 * `cantrip lsp [--stdio | --node-ipc | --socket=PORT | --pipe=NAME]
 * [--clientProcessId=PID]`: the language server, over the transport the
 * editor asks for (standard input and output without one). These are the
 * arguments LSP clients pass (vscode-languageclient's TransportKind, and
 * Neovim's, Helix's and Zed's `cmd`); an editor's argument the server does
 * not know is said on stderr (the client's log) and ignored, never fatal.
 * Runs until the client says exit, closes the stream, or — given its
 * process id here or in `initialize` — dies.
 */
import type { Command } from 'commander';
import type { Connection, MessageReader, MessageWriter } from 'vscode-languageserver/node';
import type { CliCommand, CommandContext } from '../command.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { FrameGuard } from '../lsp/framing.js';

interface LspOptions {
  readonly stdio?: boolean;
  readonly nodeIpc?: boolean;
  readonly socket?: string;
  readonly pipe?: string;
  readonly clientProcessId?: string;
}

export const lspCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('lsp')
      .description('start the language server (Language Server Protocol) for editors; standard input and output by default')
      .option('--stdio', 'talk over standard input and output (the default)')
      .option('--node-ipc', "talk over Node's IPC channel (the server started with child_process.fork)")
      .option('--socket <port>', 'connect to the editor on this TCP port of localhost')
      .option('--pipe <name>', 'connect to the editor on this named pipe or Unix socket')
      .option('--clientProcessId <pid>', "exit when the editor's process is gone")
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async (options: LspOptions, command: Command) => {
        const ignored = command.args;
        if (ignored.length > 0) process.stderr.write(`cantrip lsp: ignoring ${ignored.map((a) => `'${a}'`).join(', ')}\n`);
        checkProcessId(options.clientProcessId);
        // Loaded here, not at start-up: the protocol library is the CLI's heaviest, and only this command needs it.
        const [protocol, { startLanguageServer }] = await Promise.all([import('vscode-languageserver/node'), import('../lsp/server.js')]);
        const connection = connect(options, protocol);
        // Whatever a bug throws outside a request must not end the editor's session: log it and go on.
        process.on('uncaughtException', (error) => process.stderr.write(`cantrip lsp: ${error.stack ?? error.message}\n`));
        startLanguageServer(connection, context.io);
        await new Promise<void>((resolve) => connection.onExit(resolve));
      });
  },
};

/** A connection over the one transport the options name (standard input and output when none does). */
function connect(options: LspOptions, protocol: typeof import('vscode-languageserver/node')): Connection {
  const { createConnection, createServerPipeTransport, createServerSocketTransport, IPCMessageReader, IPCMessageWriter, ProposedFeatures } = protocol;
  const over = (reader: MessageReader, writer: MessageWriter) => createConnection(ProposedFeatures.all, reader, writer);
  const chosen = [options.stdio && '--stdio', options.nodeIpc && '--node-ipc', options.socket !== undefined && '--socket', options.pipe !== undefined && '--pipe'].filter(
    (name): name is string => typeof name === 'string',
  );
  if (chosen.length > 1) throw new CliFailure(`cantrip lsp: choose one transport, not ${chosen.join(' and ')}`, EXIT.usage);
  if (options.nodeIpc) {
    if (typeof process.send !== 'function') {
      throw new CliFailure("cantrip lsp: --node-ipc needs an IPC channel: the editor must start the server with Node's child_process.fork", EXIT.usage);
    }
    return over(new IPCMessageReader(process), new IPCMessageWriter(process));
  }
  if (options.socket !== undefined) {
    const port = Number(options.socket);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliFailure(`cantrip lsp: --socket needs a TCP port (1–65535), got '${options.socket}'`, EXIT.usage);
    return over(...createServerSocketTransport(port));
  }
  if (options.pipe !== undefined) {
    if (options.pipe === '') throw new CliFailure('cantrip lsp: --pipe needs the name of a pipe', EXIT.usage);
    return over(...createServerPipeTransport(options.pipe));
  }
  // Streams, not readers around them: the library then exits when the editor closes them. The
  // frames are checked first (bin/lsp/framing.ts): a bad header must not leave the server deaf.
  const framed = new FrameGuard({
    recovered: (line) => process.stderr.write(`${line}\n`),
    fatal: (line) => {
      process.stderr.write(`${line}\n`);
      process.exit(1);
    },
  });
  process.stdin.pipe(framed);
  return createConnection(ProposedFeatures.all, framed, process.stdout);
}

/**
 * vscode-languageserver reads --clientProcessId from the command line itself
 * and exits when that process is gone; a value it cannot read would be
 * ignored silently, so it is refused here.
 */
function checkProcessId(pid: string | undefined): void {
  if (pid !== undefined && !/^\d+$/.test(pid)) throw new CliFailure(`cantrip lsp: --clientProcessId needs a process id, got '${pid}'`, EXIT.usage);
}
