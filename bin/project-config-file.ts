/**
 * Finding a spell's `cantrip.json`: walking up from its folder, the nearest
 * one wins. Kept apart from reading it (./project-config.ts, which loads the
 * JSON schema validator), so a command in a folder without one — `cantrip
 * run hello.spell` — pays for a few stat calls and nothing more.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const CONFIG_FILE_NAME = 'cantrip.json';

/** Walking up stops after this many folders (a path deeper than that is a loop or a mistake). */
const MAX_WALK = 64;

/** The nearest cantrip.json in the folder of `spellFile` or above, or null. */
export function findConfigFile(spellFile: string): string | null {
  let dir = dirname(resolve(spellFile));
  for (let i = 0; i < MAX_WALK; i++) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (isFile(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}
