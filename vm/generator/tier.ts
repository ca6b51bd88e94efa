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
   */
  localHolder?(part: Part, k: string, pending: readonly string[], inputs: number): string | undefined;
  /**
   * Statements written before a frame part (an inline path's too): the
   * compiled tier's loop code puts the frame slots it holds in locals back
   * on the stack there (function-source.ts, promotedSlots), for whatever the
   * part calls to see.
   */
  beforeFrame?(part: Part): string;
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
  /** A frame part's code as a call to a shared function, or null to paste its body. */
  sharedPart?(part: Part): string | null;
  /** Whether a frame part is a labelled block its macros may break out of. */
  readonly labelsFrameParts: boolean;
  /** Ends a sequence that falls through to the next instruction. */
  readonly fallThrough: string;
}
