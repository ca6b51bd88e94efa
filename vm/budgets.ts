/**
 * The limits that keep a misbehaving spell from stalling or exhausting the
 * host. Every run has all of them; a VM has defaults, a cast may override.
 */

import type { BudgetLimit } from './errors.js';

export interface Budgets {
  /** Instructions a run may execute (charged at loop back-edges, calls and by host functions). Infinity = no limit. */
  fuel: number;
  /** Call depth; exceeding it is clox's "Stack overflow.". */
  maxFrames: number;
  /** Value-stack slots a fiber may use. */
  maxStack: number;
  /** Heap units a run may allocate: string characters, list elements, and objects by vm/costs.ts. */
  maxHeap: number;
  /** Fibers alive (running, suspended or paused) at once in one VM. */
  maxFibers: number;
  /** Longest single `wait`, in seconds (checked by the runtime's wait through HostContext.checkWait). */
  maxWait: number;
  /** Characters of text a run may send out: `print`, and the text of host effects (`say`, `sound`, `particles`). */
  maxOutput: number;
}

export const DEFAULT_BUDGETS: Readonly<Budgets> = Object.freeze({
  fuel: 10_000_000,
  maxFrames: 256,
  maxStack: 65_536,
  maxHeap: 16_000_000,
  maxFibers: 10_000,
  maxWait: 3600,
  maxOutput: 1_000_000,
});

/** Merge overrides onto defaults, ignoring `undefined` entries. */
export function resolveBudgets(base: Readonly<Budgets>, overrides: Partial<Budgets> | undefined): Budgets {
  const out: Budgets = { ...base };
  if (overrides) {
    for (const key of Object.keys(out) as (keyof Budgets)[]) {
      const v = overrides[key];
      if (typeof v === 'number' && !Number.isNaN(v)) out[key] = v;
    }
  }
  return out;
}

/** What a fiber runs: the module's top-level script, a spell cast, or a plain call from the host. */
export type RunKind = 'script' | 'cast' | 'call';

/** The message for an exhausted budget, naming the limit and what ran out ("the script", "the cast"). */
export function budgetMessage(limit: BudgetLimit, budgets: Readonly<Budgets>, run: RunKind): string {
  switch (limit) {
    case 'fuel':
      return `Out of fuel: the ${run} ran more than ${budgets.fuel} instructions.`;
    case 'call depth':
      return 'Stack overflow.';
    case 'stack':
      return `Stack overflow: the ${run} used more than ${budgets.maxStack} stack slots.`;
    case 'heap':
      return `Out of memory: the ${run} allocated more than ${budgets.maxHeap} heap units (list elements, string characters, objects).`;
    case 'fibers':
      return `Too many fibers: more than ${budgets.maxFibers} casts are alive at once.`;
    case 'wait':
      return `Wait too long: the longest wait allowed is ${budgets.maxWait} seconds (budgets.maxWait).`;
    case 'output':
      return `Too much output: the ${run} sent out more than ${budgets.maxOutput} characters of text.`;
  }
}

/** Thrown inside the VM (and by HostContext charges) when a budget runs out; the VM turns it into a SpellRuntimeError. */
export class BudgetExceeded extends Error {
  constructor(
    readonly limit: BudgetLimit,
    message: string,
  ) {
    super(message);
  }
}
