/**
 * `cantrip dap`: the debug adapter (Debug Adapter Protocol) on standard
 * input and output, for editors' debuggers (VS Code's `cantrip` debug type,
 * Neovim's nvim-dap, …). One session per process: it ends when the editor
 * disconnects or closes the stream.
 */
import type { Command } from 'commander';
import type { CliCommand, CommandContext } from '../command.js';

export const dapCommand: CliCommand = {
  register(program: Command, context: CommandContext): void {
    program
      .command('dap')
      .description('start the debug adapter (Debug Adapter Protocol) for editors, on standard input and output')
      .action(async () => {
        // Loaded here, not at start-up: only this command needs the protocol library and the runtime.
        const { CantripDebugSession } = await import('../dap/session.js');
        // Standard output carries the protocol: anything else printed there would corrupt it.
        console.log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
        if (process.stdin.isTTY) {
          process.stderr.write('cantrip dap: waiting for a debugger (the Debug Adapter Protocol on standard input): an editor starts this command, see docs/editors.md. Ctrl-D ends it.\n');
        }
        // Whatever a bug throws outside a request must not end the editor's session: log it (the editor's adapter log) and go on.
        process.on('uncaughtException', (error) => process.stderr.write(`cantrip dap: ${error.stack ?? error.message}\n`));
        const session = new CantripDebugSession(context.io);
        await new Promise<void>((resolve) => {
          // The editor went away: the session is over.
          session.on('close', () => resolve());
          session.on('error', (event: { body?: unknown }) => {
            const text = String(event?.body ?? 'unknown error');
            process.stderr.write(`cantrip dap: ${text}\n`);
            // A broken stream ends the session too; a message that is not JSON is only skipped.
            if (/^(in|out)Stream error/.test(text)) resolve();
          });
          session.start(process.stdin, process.stdout);
        });
        process.exit(0);
      });
  },
};
