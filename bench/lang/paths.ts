/**
 * Where the benchmark's non-TypeScript files live. The harness runs from
 * dist/bench/… after `npm run build`, but the .spell/.lua/.js programs are
 * read from the source tree, so we find the repo root by walking up to the
 * package.json named PACKAGE_NAME (works from dist/ and from a TS loader alike).
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../../bin/package-info.js';

function isRepoRoot(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

function findRepoRoot(start: string): string {
  let dir = start;
  while (!isRepoRoot(dir)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`bench: no cantrip package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const PROGRAMS_DIR = join(REPO_ROOT, 'bench', 'lang', 'programs');
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
