/**
 * What `cantrip sim` does once its arguments are parsed: read the scenario
 * and its project (the cantrip.json above it, or --api), check its spells
 * against the functions the world will have, build its world, run it and
 * print the events.
 *
 * Exit codes: 0 ran (cast errors are events, not failures); 65 bad scenario,
 * breeds, spells or cantrip.json, or a spell calling a name nothing defines;
 * 66 a file cannot be read.
 */
import { BreedError, ListenerError, WorldError } from '../../runtime/errors.js';
import { describeEvent, EntityNames, type WorldEvent } from '../../runtime/events/events.js';
import { parseScenario, runScenario, type ScenarioFiles } from '../../runtime/scenario/scenario.js';
import { declaredOnlyHosts } from '../../runtime/host/declared-hosts.js';
import { VerifyError } from '../../vm/errors.js';
import { CliFailure, EXIT } from '../exit-codes.js';
import { decodeSourceText, readInputBytes } from '../input.js';
import type { CliIO } from '../io.js';
import { Projects } from '../project-config.js';
import { checkScenarioSpells, scenarioPaths } from './scenario-check.js';

export interface SimOptions {
  readonly ticks?: number;
  readonly json?: boolean;
  /** A host API declaration file: its functions are declared only, so each call just records a host-call event. */
  readonly api?: string;
}

/** Runs the scenario at `file`; returns the exit code. */
export async function simulate(file: string, options: SimOptions, io: CliIO): Promise<number> {
  const scenario = scenarioPaths(file, guard(file, () => parseScenario(decodeSourceText(file, readInputBytes(file, io)))));
  // The game's functions (--api, else the scenario's cantrip.json) are declared only: each call records a host-call event.
  const project = new Projects(io, { api: options.api }).ofOrFail(file);
  await checkScenarioSpells(file, scenario.spells, { hosts: project.hosts, apiFile: project.apiFile }, io);
  const hosts = project.gameHosts.length === 0 ? undefined : declaredOnlyHosts(project.gameHosts);
  const files: ScenarioFiles = {
    readBytes: (path) => readInputBytes(path, io),
    readText: (path) => decodeSourceText(path, readInputBytes(path, io)),
  };
  const print = options.json
    ? (e: WorldEvent) => io.stdout(JSON.stringify(e) + '\n')
    : describeWith(new EntityNames(), io);
  guard(file, () => runScenario(scenario, files, { ticks: options.ticks, onEvent: print, hosts }));
  return EXIT.ok;
}

/**
 * Bad data becomes a clean failure (exit 65) that names the file at fault;
 * read failures keep their own CliFailure.
 */
function guard<T>(file: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    // The CLI's own printer failed (not the scenario's fault): the original error, reported as ours.
    if (error instanceof ListenerError) throw error.cause;
    if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) {
      // "Scenario: …" from the runtime becomes "trolls.json: …".
      throw new CliFailure(`cantrip: ${error.message.replace(/^Scenario: /, `${file}: `)}`, EXIT.dataError);
    }
    throw error;
  }
}

/** Human-readable events, naming entities by breed even after they die. */
function describeWith(names: EntityNames, io: CliIO): (e: WorldEvent) => void {
  return (e) => {
    names.observe(e);
    io.stdout(describeEvent(e, names.breedOf) + '\n');
  };
}
