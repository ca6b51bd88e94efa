/**
 * Exit codes, from BSD's sysexits.h as clox uses them, so scripts and build
 * pipelines can tell a typo in a command line from a bug in a spell.
 */
export const EXIT = {
  ok: 0,
  /** `fmt --check`: some file is not formatted (as gofmt -l, prettier --check). */
  checkFailed: 1,
  /** EX_USAGE: unknown command or option, missing or malformed argument. */
  usage: 64,
  /** EX_DATAERR: compile error, a file that is not text, a bad or unverifiable .spb. */
  dataError: 65,
  /** EX_NOINPUT: the input file cannot be read (missing, a directory, no permission, too big). */
  noInput: 66,
  /** EX_UNAVAILABLE: a service the command needs is not there (`serve`: the port is in use, Redis cannot be reached). */
  unavailable: 69,
  /** EX_SOFTWARE: a runtime error in the spell, or an internal error in Cantrip. */
  software: 70,
  /** EX_CANTCREAT: the output file cannot be written. */
  cantCreate: 73,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * A failure a command reports to the user: a message for stderr and the exit
 * code. Commands throw it; `main` prints it. It never carries a stack trace.
 */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
