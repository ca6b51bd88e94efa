/**
 * `cantrip.json`: which breeds files and which game API file the spells in
 * a folder are written against.
 *
 *   { "breeds": "breeds.json" | ["a.json", "b.json"], "api": "game-api.json" }
 *
 * Found by walking up from a spell file's folder (./project-config-file.ts);
 * paths are relative to the cantrip.json. The one place every command reads
 * it — `run`, `sim`, `serve`, `compile` and `check` through `Projects`
 * (which puts `--api` / `--breeds` in place of its fields), the language
 * server (`cantrip lsp`) through `ProjectCache`. Loading never throws: a
 * config that cannot be used is a list of problems, which each caller
 * reports its own way (a diagnostic on the file, or exit 65:
 * `Projects.ofOrFail`).
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { BreedRegistry } from '../runtime/entities/breeds.js';
import { BreedError } from '../runtime/errors.js';
import { parseJson } from '../runtime/entities/json-syntax.js';
import { WORLD_HOST_FUNCTIONS } from '../runtime/host/host-api.js';
import { languageWorld } from '../runtime/entities/language-world.js';
import type { Diagnostic } from '../compiler/diagnostics.js';
import type { ServiceWorld } from '../compiler/service/world.js';
import type { HostFunctionSpec } from '../vm/host.js';
import { CliFailure, EXIT } from './exit-codes.js';
import { readApiFile } from './api-file.js';
import { decodeSourceText, readInputBytes } from './input.js';
import type { CliIO } from './io.js';
import { findConfigFile } from './project-config-file.js';

export { CONFIG_FILE_NAME, findConfigFile } from './project-config-file.js';

const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    breeds: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
      ],
    },
    api: { type: 'string', minLength: 1 },
  },
  additionalProperties: false,
} as const;

let validateConfig: ReturnType<Ajv['compile']> | null = null;

/** What a project gives the compiler and the language service. */
export interface Project {
  /** The cantrip.json used, or null when there is none. */
  readonly configFile: string | null;
  /** The game API file the config names (resolved), or null. */
  readonly apiFile: string | null;
  /** The built-in world API plus the game's own functions from the api file. */
  readonly hosts: readonly HostFunctionSpec[];
  /** The game's own functions alone (the api file's), which only the game can run. */
  readonly gameHosts: readonly HostFunctionSpec[];
  /** The breeds, when the config names valid ones. */
  readonly breeds: BreedRegistry | null;
  /** Why the config (or a file it names) could not be used, each naming the file. */
  readonly problems: readonly string[];
  /** Every file read: cantrip.json and the files it names (a change to any means loading again). */
  readonly inputs: readonly string[];
}

interface ConfigFile {
  readonly breeds: readonly string[];
  readonly api: string | null;
}

/** The project a spell file belongs to: its cantrip.json, or the defaults (built-in API, no breeds) when there is none. */
export function loadProject(spellFile: string, io: CliIO): Project {
  return loadConfig(findConfigFile(spellFile), io);
}

function loadConfig(configFile: string | null, io: CliIO): Project {
  const problems: string[] = [];
  const inputs: string[] = [];
  let config: ConfigFile = { breeds: [], api: null };
  if (configFile !== null) {
    inputs.push(configFile);
    const read = readConfigFile(configFile, io);
    if ('problem' in read) problems.push(read.problem);
    else config = read.config;
  }
  inputs.push(...(config.api === null ? [] : [config.api]), ...config.breeds);
  // A problem in a file the config names is said to come from the config, which is where the user looks.
  const named = (field: string) => ({ push: (problem: string) => problems.push(`${configFile}: the '${field}' file: ${problem}`) });
  const gameHosts = config.api === null ? [] : readGameHosts(config.api, io, named('api'));
  const breeds = config.breeds.length === 0 ? null : readBreeds(config.breeds, io, named('breeds'));
  return { configFile, apiFile: config.api, hosts: [...WORLD_HOST_FUNCTIONS, ...gameHosts], gameHosts, breeds, problems, inputs };
}

/** What the command line gives in place of cantrip.json's fields. */
export interface ProjectOverrides {
  /** A game API file (`--api`): its functions replace the config's. */
  readonly api?: string | undefined;
  /** A breeds file (`--breeds`): its breeds replace the config's. */
  readonly breeds?: string | undefined;
}

/**
 * The projects of the files a command works on, read the one way every
 * command reads them: the cantrip.json found from each file, with the
 * command line's `--api` / `--breeds` in its place when given. A file the
 * command line names that cannot be used stops the command here (exit 65,
 * or 66 when unreadable); a cantrip.json that cannot be used is the
 * project's `problems`, for the caller to report.
 */
export class Projects {
  private readonly cache: ProjectCache;
  private readonly gameHosts: readonly HostFunctionSpec[] | null;
  private readonly breeds: BreedRegistry | null;

  constructor(
    io: CliIO,
    private readonly overrides: ProjectOverrides = {},
  ) {
    this.cache = new ProjectCache(io);
    this.gameHosts = overrides.api === undefined ? null : readApiFile(overrides.api, io);
    this.breeds = overrides.breeds === undefined ? null : breedsFromFile(overrides.breeds, io);
  }

  /** The project of `file`: its cantrip.json's, with the command line's files in place. */
  of(file: string): Project {
    const project = this.cache.projectOf(file).project;
    const gameHosts = this.gameHosts ?? project.gameHosts;
    return {
      ...project,
      apiFile: this.overrides.api ?? project.apiFile,
      gameHosts,
      hosts: this.gameHosts === null ? project.hosts : [...WORLD_HOST_FUNCTIONS, ...gameHosts],
      breeds: this.breeds ?? project.breeds,
    };
  }

  /** The project of `file`, or a CliFailure (exit 65) naming each problem of its cantrip.json: for commands that go on to run or write something. */
  ofOrFail(file: string): Project {
    const project = this.of(file);
    if (project.problems.length > 0) throw new CliFailure(`cantrip: ${project.problems.join('\ncantrip: ')}`, EXIT.dataError);
    return project;
  }
}

/** A breeds file the command line names (`--breeds`); a bad one stops the command. */
function breedsFromFile(path: string, io: CliIO): BreedRegistry {
  const text = decodeSourceText(path, readInputBytes(path, io));
  try {
    return BreedRegistry.fromJson(text, path);
  } catch (error) {
    if (error instanceof BreedError) throw new CliFailure(`${path}: ${error.message}`, EXIT.dataError);
    throw error;
  }
}

/**
 * Projects by cantrip.json, loaded once and loaded again when any file they
 * read changes (its size or modification time): the language server picks up
 * an edited breeds or API file without a restart.
 */
export class ProjectCache {
  private readonly projects = new Map<string, { project: Project; stamp: string }>();

  constructor(private readonly io: CliIO) {}

  /** The project of a spell file, and whether it was (re)loaded by this call. */
  projectOf(spellFile: string): { project: Project; reloaded: boolean } {
    const configFile = findConfigFile(spellFile);
    const key = configFile ?? '';
    const cached = this.projects.get(key);
    if (cached && cached.stamp === stamp(cached.project.inputs)) return { project: cached.project, reloaded: false };
    const project = loadConfig(configFile, this.io);
    this.projects.set(key, { project, stamp: stamp(project.inputs) });
    return { project, reloaded: cached !== undefined };
  }
}

function stamp(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        const s = statSync(f);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return 'missing';
      }
    })
    .join('|');
}

/** A project's problems as diagnostics on a spell file (at its start: the file itself is not wrong, its configuration is). */
export function projectDiagnostics(project: Project): Diagnostic[] {
  return project.problems.map((message) => ({ severity: 'error', message, line: 1, column: 1, endLine: 1, endColumn: 1, token: '' }));
}

/** The language service's world for a project. */
export function projectWorld(project: Project): ServiceWorld {
  return languageWorld(project.hosts, project.breeds);
}

function readConfigFile(file: string, io: CliIO): { config: ConfigFile } | { problem: string } {
  let text: string;
  try {
    text = decodeSourceText(file, readInputBytes(file, io));
  } catch (error) {
    return { problem: failureText(error) };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return { problem: `${file}: JSON syntax error at line ${parsed.problem.line}, column ${parsed.problem.column}: ${parsed.problem.message}` };
  validateConfig ??= new Ajv({ allErrors: false, strict: true }).compile(CONFIG_SCHEMA);
  if (!validateConfig(parsed.value)) return { problem: `${file}: ${configShapeMessage(validateConfig.errors?.[0])}` };
  const value = parsed.value as { breeds?: string | string[]; api?: string };
  const base = dirname(file);
  const breeds = value.breeds === undefined ? [] : typeof value.breeds === 'string' ? [value.breeds] : value.breeds;
  return { config: { breeds: breeds.map((b) => resolve(base, b)), api: value.api === undefined ? null : resolve(base, value.api) } };
}

function configShapeMessage(error: { instancePath: string; keyword: string; params: Record<string, unknown> } | undefined): string {
  const expected = 'expected { "breeds": "path" | ["paths"], "api": "path" }';
  if (error === undefined) return expected;
  if (error.keyword === 'additionalProperties') return `unknown field '${String(error.params['additionalProperty'])}' (${expected})`;
  if (error.instancePath === '') return `a cantrip.json holds an object: ${expected}`;
  const field = error.instancePath.split('/')[1];
  return field === 'api' ? `'api' must be the path of a game API file (${expected})` : `'breeds' must be a path or a list of paths (${expected})`;
}

interface Problems {
  push(problem: string): void;
}

function readGameHosts(api: string, io: CliIO, problems: Problems): readonly HostFunctionSpec[] {
  try {
    return readApiFile(api, io);
  } catch (error) {
    problems.push(failureText(error));
    return [];
  }
}

/** Every file's breeds, in order, as World.loadBreeds loads a list: a parent may live in an earlier file, a name in two files is an error naming both. */
function readBreeds(files: readonly string[], io: CliIO, problems: Problems): BreedRegistry | null {
  let registry: BreedRegistry | null = null;
  for (const file of files) {
    try {
      const parsed = parseJson(decodeSourceText(file, readInputBytes(file, io)));
      if (!parsed.ok) throw new CliFailure(`${file}: JSON syntax error at line ${parsed.problem.line}, column ${parsed.problem.column}: ${parsed.problem.message}`, 65);
      registry = registry === null ? BreedRegistry.fromData(parsed.value, file) : registry.adding(parsed.value, file);
    } catch (error) {
      problems.push(error instanceof BreedError ? `${file}: ${error.message}` : failureText(error));
      return null;
    }
  }
  return registry;
}

/** A CliFailure's message without the `cantrip: ` prefix (the caller says where it comes from). */
function failureText(error: unknown): string {
  if (error instanceof CliFailure) return error.message.replace(/^cantrip: /, '');
  return error instanceof Error ? error.message : String(error);
}
