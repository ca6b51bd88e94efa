/** What differs between the code the generator writes for the interpreter and for the compiled tier. */

import type { Macro } from './macros.js';
import type { Part } from './parts.js';

export interface Tier {
  /** The code word at `offset` from the sequence's base, ip being at base + `cur`. */
  word(offset: number, cur: number): string;
  /** The code position base + `offset`, ip being at base + `cur`. */
  position(offset: number, cur: number): string;
  /** The statement moving ip from base + `cur` to base + `to`. */
  moveIp(cur: number, to: number): string;
  /** The macros that move control: JUMP, LEAVE, GOTO, DISPATCH, ENTER, CALL_OUT, TIER_UP_AT; and MEASURABLE (the registers a call out's callee may measure). */
  controlMacros(part: Part, label: string, expandContinuation: (name: string) => string): Record<string, Macro>;
  /** ip's offset from the sequence's base when it starts (-1: not known, every move is written). */
  readonly startsAt: number;
  /**
   * Where frame slot `k` (an expression) is while `pending` values (after the
   * part's `inputs` were taken) are held in locals: a temporary's name or a
   * stack element, when the tier knows the stack's depth; undefined otherwise.
   * `write`: for STORE_LOCAL (an assignment's target), not LOCAL.
   */
  localHolder?(part: Part, k: string, pending: readonly string[], inputs: number, write: boolean): string | undefined;
  /**
   * The stack's depth (from the frame's base) before the instruction at `offset` from the sequence's
   * base, when the tier knows it (compiled code: the verifier's), else -1.
   */
  depthAt?(offset: number): number;
  /**
   * The local that mirrors frame slot `slot` (compiled loop code: a block-scoped variable's slot,
   * read in a local rather than from the stack; see vm/compiled/loop-locals.ts, shadowSlots), or undefined.
   * The stack stays the truth: every write the sequence makes to that slot writes the local too.
   */
  shadow?(slot: number): string | undefined;
  /**
   * Statements after a frame part whose outputs were written to the stack (its result, or what
   * it replaced), `pendingAfter` of them held in locals: the mirrors of the slots written reread.
   */
  afterFrame?(part: Part, pendingAfter: number): string;
  /**
   * Statements written before a frame part (an inline path's too): the
   * compiled tier's loop code puts the frame slots it holds in locals back
   * on the stack there (vm/compiled/loop-locals.ts, promotedSlots), for whatever the
   * part calls to see. `oneRoad`: they go on one road of the part's (an
   * inline path's slow road), so the code after it cannot count on them.
   */
  beforeFrame?(part: Part, oneRoad?: boolean): string;
  /**
   * Statements on a heap charge's slow road, before the measurement reads
   * the stack (the loop code's frame slots held in locals go back there).
   */
  beforeMeasure?(): string;
  /**
   * The map method (an index in QUICK_MAP_METHODS, vm/map-methods.ts; -1: none of them) that the
   * method-name constant `constant` (an operand word) names, when the tier knows its constants
   * (compiled code); undefined otherwise (the interpreter: quickMapMethod tests the name at run time).
   * Only the index reaches the source, never the name.
   */
  quickMapMethod?(constant: string): number | undefined;
  /**
   * The expression for the module's constant `k` (an operand word): undefined for `constants[k]`. The
   * compiled tier's loop code reads each constant it uses once, where it is entered, into a local
   * (function-source.ts): V8 then knows it does not change across the loop's calls and stores.
   */
  constant?(k: string): string | undefined;
  /** A frame part's code as a call to a shared function, or null to paste its body. */
  sharedPart?(part: Part): string | null;
  /** Whether a frame part is a labelled block its macros may break out of. */
  readonly labelsFrameParts: boolean;
  /** Ends a sequence that falls through to the next instruction. */
  readonly fallThrough: string;
}
