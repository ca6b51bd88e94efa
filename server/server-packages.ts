/**
 * The zone server's npm packages (Colyseus, its Redis driver and presence,
 * ioredis, express) are optional peer dependencies of cantrip-lang: an
 * install for embedding, checking or the language server leaves them out
 * (docs/decisions.md, "The zone server's packages are optional peers").
 * Whatever serves — `cantrip serve`, the `cantrip-lang/server` entry — asks
 * here first, before it loads any module that imports them, so a missing
 * package is one sentence naming the exact `npm install`, never a
 * module-not-found stack trace.
 *
 * The list is package.json's `peerDependencies`; the versions named are its
 * `devDependencies`, the ones this repository is tested with.
 */
import { createRequire } from 'node:module';
import { packageManifest, PACKAGE_NAME } from '../bin/package-info.js';

/** Thrown when some of the zone server's packages are not installed. */
export class ServerPackagesMissing extends Error {
  override readonly name = 'ServerPackagesMissing';
  constructor(
    /** The packages that are missing, by name. */
    readonly missing: readonly string[],
    /** The command that installs them, `npm install name@version …`. */
    readonly installCommand: string,
  ) {
    super(`serving needs the zone server's packages, which ${PACKAGE_NAME} installs only on request: run \`${installCommand}\` (missing: ${missing.join(', ')}).`);
  }
}

/** `name@version` for each package the zone server needs, at the version this repository is tested with. */
export function serverPackages(): string[] {
  const manifest = packageManifest();
  return Object.entries(manifest?.peerDependencies ?? {}).map(([name, range]) => `${name}@${manifest?.devDependencies?.[name] ?? range}`);
}

/**
 * The server's packages that cannot be found from `from` (a file URL; this
 * module's by default, which finds them where Node will: the game's
 * node_modules beside cantrip-lang). A package that resolves but refuses the
 * `require` condition is installed all the same.
 */
export function missingServerPackages(from: string = import.meta.url): string[] {
  const require = createRequire(from);
  return serverPackages().filter((spec) => {
    try {
      require.resolve(packageName(spec));
      return false;
    } catch (error) {
      return (error as { code?: unknown }).code === 'MODULE_NOT_FOUND';
    }
  });
}

/** Throws ServerPackagesMissing unless every package the zone server imports is installed. */
export function assertServerPackages(from?: string): void {
  const missing = missingServerPackages(from);
  if (missing.length > 0) throw new ServerPackagesMissing(missing.map(packageName), `npm install ${missing.join(' ')}`);
}

/** `@scope/name@1.2.3` → `@scope/name`. */
function packageName(spec: string): string {
  return spec.slice(0, spec.lastIndexOf('@'));
}
