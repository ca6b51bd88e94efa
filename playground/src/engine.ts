/**
 * The playground's door to the toolchain: the very compiler and VM modules the
 * CLI uses. Everything that can fail comes back as a value; nothing here
 * throws into the UI.
 */
import type { Diagnostic } from '../../compiler/diagnostics.js';
import { LineIndex, serviceDiagnostic, type LanguageService } from '../../compiler/service/index.js';
import type { HostFunction } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { SpellRuntimeError, VerifyError } from '../../vm/errors.js';
import type { Budgets } from '../../vm/budgets.js';
import { VM } from '../../vm/vm.js';
import { markersFromDiagnostics, type MarkerData } from './language/markers.js';
import { errorMessage } from './errorMessage.js';
import { SPELL_URI } from './language/documentUris.js';

export { errorMessage, SPELL_URI };

/**
 * A cast in the playground runs on the page's thread, so it gets a finite
 * budget: an infinite loop or runaway recursion ends in well under a second
 * with a budget error instead of freezing the tab.
 */
export const PLAYGROUND_BUDGETS: Partial<Budgets> = { fuel: 5_000_000, maxFrames: 256, maxHeap: 4_000_000 };

export interface CompileOutcome {
  readonly module: Module | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly markers: readonly MarkerData[];
}

/**
 * Live compiling runs on every pause in typing, on the page's thread; past
 * this size it would stall the page for seconds, so it is refused with a
 * message (the CLI compiles files of any size).
 */
export const MAX_LIVE_SOURCE = 1 << 20;

function megabytes(n: number): string {
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}

function errorAtStart(message: string, source: string): CompileOutcome {
  const diagnostic: Diagnostic = { severity: 'error', message, line: 1, column: 1, endLine: 1, endColumn: 1, token: '' };
  const lines = new LineIndex(source.slice(0, 10_000));
  return { module: null, diagnostics: [diagnostic], markers: markersFromDiagnostics([serviceDiagnostic(diagnostic, lines)], lines) };
}

/**
 * The spell as the language service analyses it — the very analysis the
 * editor's completion, hover, quick fixes and navigation read. The
 * service's world holds the host API and the loaded breeds; with breeds the
 * compiler warns about a property no breed has (`caster.wisdm` — did you
 * mean 'wisdom'?), as World.loadSpells does.
 */
export function compileSpell(service: LanguageService, source: string): CompileOutcome {
  if (source.length > MAX_LIVE_SOURCE) {
    return errorAtStart(`This source is ${megabytes(source.length)}; the playground compiles up to ${megabytes(MAX_LIVE_SOURCE)} (use the CLI: npx cantrip check).`, source);
  }
  try {
    const doc = service.document(SPELL_URI, source);
    return { module: doc.compiled.module, diagnostics: doc.compiled.diagnostics, markers: markersFromDiagnostics(doc.diagnostics, doc.lines) };
  } catch (e) {
    // The service promises never to throw; if it does, say so on line 1 rather than blanking the page.
    return errorAtStart(`Internal compiler error: ${errorMessage(e)}`, source);
  }
}

export interface RunFailure {
  readonly message: string;
  /** Full clox-style text: message plus `[line N] in fn()` frames. */
  readonly text: string;
  readonly line: number | null;
}


/** Any error a run can produce, as something the console can show. */
export function describeFailure(e: unknown): RunFailure {
  if (e instanceof SpellRuntimeError) return { message: e.message, text: e.format(), line: e.line > 0 ? e.line : null };
  if (e instanceof VerifyError) return { message: e.message, text: `Bytecode rejected: ${e.message}`, line: null };
  return { message: errorMessage(e), text: `Internal error: ${errorMessage(e)}`, line: null };
}

/** Creates a VM for a module; a VerifyError (missing host import …) comes back as a failure. */
export function createVm(module: Module, hosts: readonly HostFunction[], print: (text: string) => void): VM | RunFailure {
  try {
    return new VM(module, { ...PLAYGROUND_BUDGETS, hosts, print });
  } catch (e) {
    return describeFailure(e);
  }
}
