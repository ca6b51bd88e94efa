/**
 * The package's own package.json (name, version, the zone server's optional
 * peer dependencies), found by walking up from this file: it lives in bin/
 * when run from source (tests) and in dist/bin/ when compiled.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name on npm (`cantrip` there is an unrelated package); the command stays `cantrip`. */
export const PACKAGE_NAME = 'cantrip-lang';

/** The fields of cantrip-lang's package.json that the code reads. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

let manifest: PackageManifest | null | undefined;

/** cantrip-lang's package.json, or null when it cannot be found (a copied-out dist/). */
export function packageManifest(): PackageManifest | null {
  if (manifest !== undefined) return manifest;
  manifest = null;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const parsed: unknown = JSON.parse(fs.readFileSync(candidate, 'utf8'));
      if (isCantripPackage(parsed)) return (manifest = parsed);
    }
    dir = path.dirname(dir);
  }
  return manifest;
}

export function packageVersion(): string {
  return packageManifest()?.version ?? 'unknown';
}

function isCantripPackage(value: unknown): value is PackageManifest {
  return (
    typeof value === 'object' &&
    value !== null &&
    'name' in value &&
    value.name === PACKAGE_NAME &&
    'version' in value &&
    typeof value.version === 'string'
  );
}
