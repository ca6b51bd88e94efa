/**
 * The zone server's packages are optional peers: from a folder where none
 * resolves, each is missing and the error names the one `npm install` that
 * brings them, at the versions this repository is tested with.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ServerPackagesMissing, assertServerPackages, missingServerPackages, serverPackages } from './server-packages.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const nowhere = mkdtempSync(join(tmpdir(), 'cantrip-no-server-'));
const fromNowhere = pathToFileURL(join(nowhere, 'game.js')).href;

afterAll(() => rmSync(nowhere, { recursive: true, force: true }));

describe('the zone server’s packages', () => {
  it('are the peer dependencies, at their devDependencies versions', () => {
    expect(serverPackages()).toEqual(Object.keys(manifest.peerDependencies).map((name) => `${name}@${manifest.devDependencies[name]}`));
    expect(serverPackages()).toContain('@colyseus/core@0.18.17');
  });

  it('are all found from this repository', () => {
    expect(missingServerPackages()).toEqual([]);
    expect(() => assertServerPackages()).not.toThrow();
  });

  it('missing, make one error naming the npm install', () => {
    expect(missingServerPackages(fromNowhere)).toEqual(serverPackages());
    let error: unknown;
    try {
      assertServerPackages(fromNowhere);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServerPackagesMissing);
    const missing = error as ServerPackagesMissing;
    expect(missing.installCommand).toBe(`npm install ${serverPackages().join(' ')}`);
    expect(missing.missing).toEqual(Object.keys(manifest.peerDependencies));
    expect(missing.message).not.toContain('\n');
  });
});
