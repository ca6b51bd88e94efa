/**
 * ajv's errors as messages that say which field is wrong, as a JSON path
 * (`$.fibers[3].budgets.fuel must be a number or null`), for the readers of
 * untrusted JSON that check its shape with a schema (vm/vm-snapshot-schema.ts,
 * runtime/world-snapshot-schema.ts). Compile schemas with `verbose: true` so
 * an `anyOf` can say what it wanted through its schema's `description`.
 */

import type { ErrorObject } from 'ajv';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$.a[0].b` for the JSON pointer `/a/0/b` under `root` (`$`, or where the document sits in a larger one). */
export function jsonPath(root: string, pointer: string): string {
  let path = root;
  if (pointer === '') return path;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^(0|[1-9][0-9]*)$/.test(key) ? `[${key}]` : IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  }
  return path;
}

/** `path.key`, as jsonPath writes it. */
export function childPath(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** The message for ajv's errors of one failed validation: the last is the summary (an anyOf's comes after its branches'). */
export function schemaErrorMessage(errors: readonly ErrorObject[] | null | undefined, root: string): string {
  const error = errors?.[errors.length - 1];
  if (error === undefined) return `${root} is malformed.`;
  const path = jsonPath(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `${path} must be ${oneOf([params['type']].flat().map((t) => withArticle(String(t))))}.`;
    case 'required':
      return `${path} is missing its field '${String(params['missingProperty'])}'.`;
    case 'additionalProperties':
      return `${path} has an unknown field ${JSON.stringify(String(params['additionalProperty']))}.`;
    case 'additionalItems':
    case 'maxItems':
      return `${path} has more than ${String(params['limit'])} items.`;
    case 'minItems':
      return `${path} has fewer than ${String(params['limit'])} items.`;
    case 'maxLength':
      return `${path} is longer than ${String(params['limit'])} characters.`;
    case 'const':
      return `${path} must be ${JSON.stringify(params['allowedValue'])}.`;
    case 'enum':
      return `${path} must be ${oneOf((params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)))}.`;
    case 'minimum':
    case 'maximum':
      return `${path} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params['limit'])}.`;
    case 'discriminator': {
      const tag = String(params['tag']);
      return `${childPath(path, tag)} must be ${oneOf(tagValues(error, tag).map((v) => JSON.stringify(v)))}.`;
    }
    default:
      return `${path} ${describedBy(error) ?? error.message ?? 'is malformed'}.`;
  }
}

/** What the failing schema says it wants (its `description`), when it says. */
function describedBy(error: ErrorObject): string | undefined {
  const schema = error.parentSchema as { description?: unknown } | undefined;
  return typeof schema?.description === 'string' ? schema.description : undefined;
}

/** The values a discriminated oneOf allows for its tag (each branch's `const`). */
function tagValues(error: ErrorObject, tag: string): unknown[] {
  const branches = (error.parentSchema as { oneOf?: { properties?: Record<string, { const?: unknown }> }[] } | undefined)?.oneOf ?? [];
  return branches.map((b) => b.properties?.[tag]?.const).filter((v) => v !== undefined);
}

function withArticle(type: string): string {
  if (type === 'null') return 'null';
  if (type === 'integer') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function oneOf(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
