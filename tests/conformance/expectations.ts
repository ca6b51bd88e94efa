/**
 * The annotations of a conformance program, in the style of the book's test
 * suite (craftinginterpreters/test):
 *
 *   print 1; // expect: 1                      — a line of standard output, in order
 *   x; // expect runtime error: Message.       — stderr starts with the message and then
 *                                                `[line N]` of this line; exit 70
 *   1 = 2; // Error at '=': Invalid assignment target.
 *                                              — a compile error on this line; exit 65
 *   // [line 4] Error at end: Expect '}' after block.
 *                                              — a compile error on an explicit line
 *   // cli: --fuel 1000                        — extra arguments for `cantrip run`
 *
 * Compile errors are matched exactly and in order: stderr must hold these lines
 * and nothing else, as clox prints them.
 */

export interface Expectations {
  readonly output: readonly string[];
  readonly compileErrors: readonly string[];
  readonly runtimeError: { readonly message: string; readonly line: number } | null;
  readonly cliArgs: readonly string[];
}

const EXPECT_OUTPUT = /\/\/ expect: ?(.*)$/;
const EXPECT_RUNTIME_ERROR = /\/\/ expect runtime error: (.+)$/;
const EXPECT_ERROR_AT_LINE = /\/\/ \[line (\d+)\] (Error.*)$/;
const EXPECT_ERROR = /\/\/ (Error.*)$/;
const CLI_ARGS = /^\/\/ cli: (.+)$/;

export function parseExpectations(source: string): Expectations {
  const output: string[] = [];
  const compileErrors: string[] = [];
  let runtimeError: Expectations['runtimeError'] = null;
  const cliArgs: string[] = [];
  source.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    let m: RegExpExecArray | null;
    if ((m = EXPECT_OUTPUT.exec(text))) output.push(m[1]!);
    else if ((m = EXPECT_RUNTIME_ERROR.exec(text))) runtimeError = { message: m[1]!, line };
    else if ((m = EXPECT_ERROR_AT_LINE.exec(text))) compileErrors.push(`[line ${m[1]}] ${m[2]}`);
    else if ((m = EXPECT_ERROR.exec(text))) compileErrors.push(`[line ${line}] ${m[1]}`);
    else if ((m = CLI_ARGS.exec(text))) cliArgs.push(...m[1]!.trim().split(/\s+/));
  });
  return { output, compileErrors, runtimeError, cliArgs };
}

/** 65 for compile errors, 70 for a runtime error, otherwise 0. */
export function expectedExitCode(e: Expectations): number {
  if (e.compileErrors.length > 0) return 65;
  if (e.runtimeError !== null) return 70;
  return 0;
}
