/**
 * The CLI's name and version come from package.json, found by walking up
 * from this file: it lives in bin/ when run from source (tests) and in
 * dist/bin/ when compiled.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name on npm (`cantrip` there is an unrelated package); the command stays `cantrip`. */
export const PACKAGE_NAME = 'cantrip-lang';

export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const parsed: unknown = JSON.parse(fs.readFileSync(candidate, 'utf8'));
      if (isCantripPackage(parsed)) return parsed.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

function isCantripPackage(value: unknown): value is { name: string; version: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'name' in value &&
    value.name === PACKAGE_NAME &&
    'version' in value &&
    typeof value.version === 'string'
  );
}
