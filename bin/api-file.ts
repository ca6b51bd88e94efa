/**
 * `--api game-api.json` adds a game's own functions, declared in the JSON
 * format `cantrip api --json` prints (vm/host-api-json.ts): check, compile
 * and disasm check calls against them, sim gives them implementations that
 * record a `host-call` event.
 */
import { KEYWORDS } from '../compiler/tokens.js';
import { HostApiError, hostApiDeclaration, readHostApiDeclaration } from '../vm/host-api-json.js';
import type { HostFunctionSpec } from '../vm/host.js';
import { joinHostTables } from '../vm/host-table.js';
import { findJsonSyntaxError } from '../runtime/entities/json-syntax.js';
import { WORLD_HOST_FUNCTIONS } from '../runtime/host/host-api.js';
import { CliFailure, EXIT } from './exit-codes.js';
import { decodeSourceText, readInputBytes } from './input.js';
import type { CliIO } from './io.js';

/** The functions declared in an --api file, checked (exit 65 with the reason, 66 if unreadable). */
export function readApiFile(path: string, io: CliIO): HostFunctionSpec[] {
  const text = decodeSourceText(path, readInputBytes(path, io));
  const syntax = findJsonSyntaxError(text);
  if (syntax !== null) {
    throw new CliFailure(`cantrip: ${path}: JSON syntax error at line ${syntax.line}, column ${syntax.column}: ${syntax.message}`, EXIT.dataError);
  }
  let functions: HostFunctionSpec[];
  try {
    functions = readHostApiDeclaration(JSON.parse(text) as unknown, new Set(KEYWORDS));
  } catch (error) {
    if (error instanceof HostApiError) throw new CliFailure(`cantrip: ${path}: ${error.message}`, EXIT.dataError);
    throw error;
  }
  // A file may repeat built-ins exactly as `cantrip api --json` prints them (a game publishing its whole API); those are the built-ins.
  const builtins = new Map(hostApiDeclaration(WORLD_HOST_FUNCTIONS).functions.map((f) => [f.name, JSON.stringify(f)]));
  functions = functions.filter((f) => builtins.get(f.name) !== JSON.stringify(hostApiDeclaration([f]).functions[0]));
  const joined = joinHostTables(WORLD_HOST_FUNCTIONS as readonly HostFunctionSpec[], functions);
  if ('problem' in joined) throw new CliFailure(`cantrip: ${path}: ${joined.problem}`, EXIT.dataError);
  return functions;
}

/** The host table to check against: the built-ins, plus the --api file's functions when one is given. */
export function cliHostSpecs(apiFile: string | undefined, io: CliIO): readonly HostFunctionSpec[] {
  return apiFile === undefined ? WORLD_HOST_FUNCTIONS : [...WORLD_HOST_FUNCTIONS, ...readApiFile(apiFile, io)];
}
