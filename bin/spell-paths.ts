/**
 * The spell files a command line names, for the commands that take many
 * (`fmt`, `check`). A file is taken as it is — reading it later reports
 * whatever is wrong with it. A folder stands for every `.spell` file in it
 * and its subfolders, as gofmt and prettier take folders, skipping
 * `node_modules` (installed packages' spells are not the project's to format)
 * and dot-folders and dot-files (`.git`, caches, an editor's `.#zap.spell`
 * lock file), as gofmt does.
 *
 * Folders are walked in name order, so the output is the same on every
 * machine. A symbolic link to a file is taken; one to a folder is not
 * followed (a link back up the tree would never end), as gofmt does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeFsError } from './input.js';

/** The files a folder contributes. */
export const SPELL_EXTENSION = '.spell';

const skipped = (name: string) => name === 'node_modules' || name.startsWith('.');

export interface SpellPaths {
  /** Each file once, in the order named; a folder's files where the folder was named. */
  readonly files: readonly string[];
  /** Folders that could not be read or hold no spell file: the path named and a message, each an unreadable input (exit 66). */
  readonly problems: readonly { readonly path: string; readonly message: string }[];
}

export function expandSpellPaths(named: readonly string[]): SpellPaths {
  const files: string[] = [];
  const problems: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  const take = (file: string) => {
    const key = path.resolve(file);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const arg of named) {
    if (!isFolder(arg)) {
      take(arg);
      continue;
    }
    const before = files.length;
    const unreadable = walk(arg, take);
    for (const [folder, error] of unreadable) problems.push({ path: folder, message: `cantrip: cannot read the folder '${folder}': ${describeFsError(error)}` });
    if (files.length === before && unreadable.length === 0) problems.push({ path: arg, message: `cantrip: no ${SPELL_EXTENSION} files in '${arg}'` });
  }
  return { files, problems };
}

function isFolder(arg: string): boolean {
  try {
    return fs.statSync(arg).isDirectory();
  } catch {
    return false; // a missing path is reported when it is read, as a file
  }
}

/** Calls `take` for each spell file under `folder`, depth first in name order; the subfolders that could not be read, with why. */
function walk(folder: string, take: (file: string) => void): [string, unknown][] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    return [[folder, error]];
  }
  const unreadable: [string, unknown][] = [];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (skipped(entry.name)) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      unreadable.push(...walk(full, take));
    } else if (entry.name.endsWith(SPELL_EXTENSION) && (entry.isFile() || (entry.isSymbolicLink() && isFile(full)))) {
      take(full);
    }
  }
  return unreadable;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false; // a broken link is not a spell
  }
}
