/**
 * How a run started by `VM.callFast` / `VM.castFast` ended. Those are the
 * hot-path forms of `call` / `cast`: a run that finishes (done or failed)
 * leaves no Fiber behind, so they report here instead — in ONE object per
 * VM, overwritten by the next fast run. Read what you need before starting
 * another; copy it if you keep it.
 */

import type { SpellRuntimeError } from './errors.js';
import type { Fiber } from './fiber.js';
import type { Value } from './value.js';

export class RunOutcome {
  /** 'done' or 'failed': the run is over. 'suspended' (a host function such as wait) or 'paused' (a debugger): `fiber` goes on. */
  state: 'done' | 'failed' | 'suspended' | 'paused' = 'done';
  /** What the function or spell returned, when 'done'. */
  result: Value = null;
  /** Why the run failed, when 'failed'. */
  error: SpellRuntimeError | null = null;
  /** The fiber, only while it goes on ('suspended' or 'paused'): resume, debug or cancel it as any other. Otherwise null. */
  fiber: Fiber | null = null;
}
