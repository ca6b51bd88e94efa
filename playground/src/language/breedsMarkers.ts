/**
 * Puts a breeds-file error on the right line of the breeds editor: a syntax
 * error at its line and column, a validation error (which names the breed
 * and the field, e.g. 'spells.attack') at that field's key.
 */
import { locatePath, readJson, type JsonPath } from './jsonLocations.js';
import type { MarkerData } from './markers.js';

/** The shape of runtime/errors.ts BreedError, as plain data. */
export interface BreedProblem {
  readonly message: string;
  readonly breed: string | null;
  readonly field: string | null;
  readonly line: number | null;
  readonly column: number | null;
}

function breedIndex(data: unknown, breed: string): number {
  const list = (data as { breeds?: unknown } | null)?.breeds;
  if (!Array.isArray(list)) return -1;
  return list.findIndex((b) => typeof b === 'object' && b !== null && (b as { name?: unknown }).name === breed);
}

/** The JSON path of a problem inside `{"breeds": [...]}`. */
export function problemPath(data: unknown, problem: BreedProblem): JsonPath {
  if (problem.breed === null) return problem.field ? ['breeds'] : [];
  const index = breedIndex(data, problem.breed);
  if (index < 0) return ['breeds'];
  const field = problem.field ? problem.field.split('.').filter((p) => p !== '') : [];
  return ['breeds', index, ...field.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
}

export function markerForBreedProblem(text: string, problem: BreedProblem): MarkerData {
  const parsed = readJson(text);
  if (problem.line !== null && problem.column !== null) {
    return { severity: 'error', message: problem.message, source: 'breeds', startLineNumber: problem.line, startColumn: problem.column, endLineNumber: problem.line, endColumn: problem.column + 1 };
  }
  if (!parsed.ok) {
    const s = parsed.span;
    return { severity: 'error', message: problem.message, source: 'breeds', startLineNumber: s.line, startColumn: s.column, endLineNumber: s.endLine, endColumn: s.endColumn };
  }
  const span = locatePath(parsed.spans, problemPath(parsed.value, problem)) ?? { line: 1, column: 1, endLine: 1, endColumn: 2 };
  return { severity: 'error', message: problem.message, source: 'breeds', startLineNumber: span.line, startColumn: span.column, endLineNumber: span.endLine, endColumn: span.endColumn };
}
