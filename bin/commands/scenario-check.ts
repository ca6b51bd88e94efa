/**
 * Before `sim` or `serve` runs a scenario's world: each of its spell files
 * checked as `cantrip check` checks it, against the functions that world
 * will have. A call to a name nothing defines (Lox binds globals late, so it
 * compiles, then fails in the middle of the run) stops the command with
 * check's report of the file on stderr and exit 65: the user hears of it
 * before the world runs, not as a cast error some ticks in. A file that
 * does not compile or cannot be read is left to the world's loading, which
 * names every error of it as `file:line:column: error: …` (exit 65, 66).
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { HostFunctionSpec } from '../../vm/host.js';
import type { Scenario } from '../../runtime/scenario/scenario.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { undefinedNames } from '../unknown-names.js';
import { checkFile, exitCodeFor, renderReports, type FileReport } from './check-files.js';

/** The scenario's paths, relative to it, as seen from the working directory (spells/breeds.json, not ../breeds.json). */
export function scenarioPaths(file: string, scenario: Scenario): Scenario {
  const base = dirname(file);
  const local = (path: string): string => (isAbsolute(path) ? path : join(base, path));
  return { ...scenario, breeds: local(scenario.breeds), spells: scenario.spells.map(local) };
}

export interface ScenarioCheck {
  /** The functions the world will have: the built-in ones and the game's it is given. */
  readonly hosts: readonly HostFunctionSpec[];
  /** The game API file those came from, for the note under undefined names. */
  readonly apiFile: string | null;
  /** The note under a file's undefined names, in place of check's usual one (which says to pass --api), or null for that one. */
  readonly explainUndefined?: (names: readonly string[]) => string | null;
}

/** Throws a CliFailure with check's report of each spell file of the scenario that calls a name nothing defines. */
export async function checkScenarioSpells(scenarioFile: string, spellFiles: readonly string[], check: ScenarioCheck, io: CliIO): Promise<void> {
  const failing: FileReport[] = [];
  for (const file of spellFiles) {
    const report = await checkFile(file, io, check.hosts);
    const undefinedHere = undefinedNames(report.diagnostics);
    if (exitCodeFor([report]) !== EXIT.ok || undefinedHere.length === 0) continue;
    const note = undefinedHere.length === 0 ? null : (check.explainUndefined?.(undefinedHere) ?? null);
    failing.push({ ...report, ...(check.apiFile === null ? {} : { apiFile: check.apiFile }), ...(note === null ? {} : { undefinedNote: note }) });
  }
  if (failing.length === 0) return;
  throw new CliFailure(`${renderReports(failing, 'pretty')}cantrip: ${scenarioFile}: not run: its spells call names nothing defines, which would fail mid-run.`, EXIT.dataError);
}
