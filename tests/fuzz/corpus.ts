/**
 * The real programs and data the mutation fuzzers start from: every spell in
 * spells/ and tests/conformance/, and every breeds file in spells/.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SourceFile {
  /** Path relative to the repository, for messages. */
  readonly name: string;
  readonly text: string;
}

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(full, accept);
      return accept(entry.name) ? [full] : [];
    })
    .sort();
}

function read(files: readonly string[]): SourceFile[] {
  return files.map((file) => ({ name: path.relative(REPO, file), text: fs.readFileSync(file, 'utf8') }));
}

/** Every .spell file of spells/ and tests/conformance/. */
export function spellCorpus(): SourceFile[] {
  const isSpell = (name: string): boolean => name.endsWith('.spell');
  return read([...filesUnder(path.join(REPO, 'spells'), isSpell), ...filesUnder(path.join(REPO, 'tests/conformance'), isSpell)]);
}

/** The example breeds files (JSON with a top-level "breeds" array). */
export function breedCorpus(): SourceFile[] {
  const files = filesUnder(path.join(REPO, 'spells'), (name) => name.endsWith('.json'));
  return read(files).filter((f) => {
    try {
      return Array.isArray((JSON.parse(f.text) as { breeds?: unknown }).breeds);
    } catch {
      return false;
    }
  });
}
