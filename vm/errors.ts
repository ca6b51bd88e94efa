/**
 * The few error classes a user of Cantrip ever sees. Nothing else escapes.
 */
import { boundedText } from './bounded-text.js';
import { formatTrace, type TraceFrame } from './trace-format.js';

export type { TraceFrame } from './trace-format.js';

/** Longest error message kept (a message quoting a long name is cut, its length said). */
export const MAX_ERROR_MESSAGE = 1000;

/** Which budget ran out, when a budget ends a cast. */
export type BudgetLimit = 'fuel' | 'call depth' | 'stack' | 'heap' | 'fibers' | 'wait' | 'output';

/** A runtime error inside a spell: message in the book's wording plus the call stack. */
export class SpellRuntimeError extends Error {
  override readonly name = 'SpellRuntimeError';
  constructor(
    message: string,
    readonly trace: readonly TraceFrame[],
    readonly limit: BudgetLimit | null = null,
    /** The spell being cast, when the error happened in a cast. */
    readonly spell: string | null = null,
  ) {
    // A message may quote spell text; whatever slipped past the quoting helpers is cut here.
    // No JS stack is captured: it would show the VM's internals, never the spell's (that is
    // `trace`), and capturing one made a failing cast cost ~50 µs (docs/security.md).
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(boundedText(message, MAX_ERROR_MESSAGE));
    Error.stackTraceLimit = stackLimit;
  }

  get line(): number {
    return this.trace[0]?.line ?? 0;
  }

  /** clox's format: the message, then `[line N] in fn()` / `[line N] in script` per frame, recursion collapsed. */
  format(): string {
    return [this.message, ...formatTrace(this.trace)].join('\n');
  }
}

/** Thrown by host functions and host objects to report a spell-level error ("Entity is gone."). */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(message: string) {
    // Spell-level errors carry no JS stack (see SpellRuntimeError): they are thrown per failing call.
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackLimit;
  }
}

/** A .spb file that is truncated, foreign, or fails verification. */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
  constructor(
    message: string,
    /** The function (name or index) and code offset, when the problem is inside code. */
    readonly functionName: string | null = null,
    readonly offset: number | null = null,
  ) {
    super(functionName === null ? message : `${message} (in ${functionName || 'script'} at offset ${offset ?? 0})`);
  }
}
