/**
 * Colyseus's logger for the zone server: what Colyseus reports (a client's
 * socket error, a room that failed) becomes one line in the server's log,
 * never a stack trace. A message over the WebSocket size limit, for one, is
 * `ws`'s RangeError, which Colyseus prints with its whole stack.
 */

/** The logger interface Colyseus calls (console's shape). */
export interface ColyseusLogger {
  debug(...args: unknown[]): void;
  trace(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** The first line of what was said (an Error's message, a string's first line). */
export function oneLine(args: readonly unknown[]): string {
  return args
    .map((a) => (a instanceof Error ? a.message : String(a)).split('\n')[0]!.trim())
    .filter((text) => text !== '')
    .join(' ');
}

/** Explain the one Colyseus error a client can cause on purpose. */
function explained(line: string): string {
  if (/Max payload size exceeded/.test(line)) return 'a client sent a message over the WebSocket size limit (Max payload size exceeded): its connection was closed (code 1009).';
  return line;
}

export function colyseusLogger(log: (message: string) => void): ColyseusLogger {
  const say = (level: string) => (...args: unknown[]): void => {
    const line = oneLine(args);
    if (line !== '') log(`colyseus ${level}: ${explained(line)}`);
  };
  const quiet = (): void => {};
  return { debug: quiet, trace: quiet, info: quiet, warn: say('warning'), error: say('error') };
}
