/**
 * A host API as a JSON declaration: names, parameters, types and docs, no
 * implementations. `cantrip api --json` prints the built-in table in this
 * format; a game publishes its own functions in it, and modders check,
 * compile, disassemble and simulate spells against it with `--api file.json`
 * — without the game.
 *
 *   {
 *     "format": "cantrip-host-api", "version": 1,
 *     "functions": [
 *       { "name": "shake", "params": [{ "name": "seconds", "type": "number" }],
 *         "returns": "nil", "doc": "Shake the camera." }
 *     ]
 *   }
 *
 * Read with ajv against HOST_API_SCHEMA, then the same semantic checks as
 * `new World({ hosts })` (vm/host-table.ts).
 */

import { Ajv, type ErrorObject } from 'ajv';
import type { HostFunctionSpec, HostParam } from './host.js';
import { HOST_VALUE_TYPES, MAX_HOST_PARAMS, hostSpecProblem } from './host-table.js';
import type { ValueType } from './value.js';

export const HOST_API_FORMAT = 'cantrip-host-api';
export const HOST_API_VERSION = 1;

/** The declaration file as data. */
export interface HostApiDeclaration {
  readonly $schema?: string;
  readonly format: typeof HOST_API_FORMAT;
  readonly version: typeof HOST_API_VERSION;
  readonly functions: readonly HostFunctionSpec[];
}

const NAME = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 64 } as const;
const TYPE = { enum: [...HOST_VALUE_TYPES] } as const;

export const HOST_API_SCHEMA = {
  type: 'object',
  required: ['format', 'version', 'functions'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    format: { const: HOST_API_FORMAT },
    version: { const: HOST_API_VERSION },
    functions: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['name', 'params', 'returns', 'doc'],
        additionalProperties: false,
        properties: {
          name: NAME,
          params: {
            type: 'array',
            maxItems: MAX_HOST_PARAMS,
            items: {
              type: 'object',
              required: ['name', 'type'],
              additionalProperties: false,
              properties: { name: NAME, type: TYPE, optional: { type: 'boolean' }, doc: { type: 'string', maxLength: 1000 } },
            },
          },
          returns: TYPE,
          doc: { type: 'string', maxLength: 1000 },
        },
      },
    },
  },
} as const;

/** Why a declaration file was refused: the message names the place (`functions/2/params/0/type`). */
export class HostApiError extends Error {
  override readonly name = 'HostApiError';
}

/** The declaration of a host table (implementations dropped), ready for JSON.stringify. */
export function hostApiDeclaration(specs: readonly HostFunctionSpec[]): HostApiDeclaration {
  return {
    format: HOST_API_FORMAT,
    version: HOST_API_VERSION,
    functions: specs.map((s) => ({
      name: s.name,
      params: s.params.map(paramDeclaration),
      returns: s.returns,
      doc: s.doc,
    })),
  };
}

function paramDeclaration(p: HostParam): HostParam {
  return {
    name: p.name,
    type: p.type,
    ...(p.optional ? { optional: true } : {}),
    ...(p.doc !== undefined ? { doc: p.doc } : {}),
  };
}

let validator: ReturnType<Ajv['compile']> | null = null;

/** Check parsed JSON as a declaration and return its functions. Throws HostApiError. */
export function readHostApiDeclaration(data: unknown, reserved: ReadonlySet<string> = new Set()): HostFunctionSpec[] {
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(HOST_API_SCHEMA);
  if (!validator(data)) throw new HostApiError(describeSchemaError(validator.errors?.[0]));
  const functions = (data as HostApiDeclaration).functions.map((f) => ({
    name: f.name,
    params: f.params.map(paramDeclaration),
    returns: f.returns as ValueType,
    doc: f.doc,
  }));
  for (const f of functions) {
    const problem = hostSpecProblem(f, reserved);
    if (problem !== null) throw new HostApiError(problem);
  }
  return functions;
}

function describeSchemaError(error: ErrorObject | undefined): string {
  if (!error) return 'not a host API declaration.';
  const at = error.instancePath === '' ? 'the top level' : error.instancePath.slice(1);
  if (error.keyword === 'const' && error.instancePath === '/format') return `not a host API declaration ("format" must be "${HOST_API_FORMAT}").`;
  if (error.keyword === 'const' && error.instancePath === '/version') return `unsupported version (this Cantrip reads version ${HOST_API_VERSION}).`;
  if (error.keyword === 'additionalProperties') return `${at}: unknown field '${String(error.params['additionalProperty'])}'.`;
  if (error.keyword === 'required') return `${at}: missing field '${String(error.params['missingProperty'])}'.`;
  if (error.keyword === 'enum') return `${at} must be one of ${HOST_VALUE_TYPES.join(', ')}.`;
  return `${at} ${error.message ?? 'is invalid'}.`;
}
