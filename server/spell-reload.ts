/**
 * Live spell reload across the server (`cantrip serve --watch`, the
 * `serveWorld` handle's `reload`): changed spell files are loaded into every
 * zone's world of every process, with World.loadSpells's rules — new casts,
 * tick spells and AOI handlers run the new code, casts in flight finish on
 * the code they started with — and its report (what was added, removed,
 * changed). All or nothing across the server: the reload is tried first on a
 * world of its own (compile errors, a spell another module has, a spell a
 * breed names dropped, a top-level script that fails); if it fails there,
 * no zone anywhere changes.
 */

import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { SpellsReload } from '../runtime/world/world.js';
import type { ServedScenario } from './served-scenario.js';
import type { ZoneRuntime } from './zone.js';

/** A spell file's new text, named as the scenario names it (its path). */
export interface SpellSource {
  readonly path: string;
  readonly source: string;
}

export class SpellReloader {
  /** The text of each spell file the zones run now (as read when they were built, then each reload). */
  private readonly current = new Map<string, string>();

  constructor(private readonly served: ServedScenario) {
    for (const path of served.scenario.spells) if (!path.endsWith('.spb')) this.current.set(path, served.files.readText(path));
  }

  /** The scenario's spell file a reload names, by its path as given or resolved; a WorldError-free sentence when it names none. */
  fileFor(name: string | undefined): string {
    const files = this.served.scenario.spells.filter((f) => !f.endsWith('.spb'));
    if (name === undefined) {
      if (files.length === 1) return files[0]!;
      throw new Error(`reload(source, file): name the spell file to reload, one of ${files.join(', ')}.`);
    }
    const found = files.find((f) => f === name || f.endsWith(`/${name}`));
    if (found === undefined) throw new Error(`reload: ${name} is not a spell file of the scenario (${files.join(', ')}).`);
    return found;
  }

  /**
   * Load the new sources into a world of their own, as every zone has it now: the report of each
   * (World.lastLoad), or the error (SpellsCompileError / WorldError) — then nothing is reloaded anywhere.
   */
  trial(files: readonly SpellSource[]): SpellsReload[] {
    // From what the zones run now (a file on disk may have changed already: that is the change).
    const probe = this.served.makeWorld(this.current);
    return files.map((f) => {
      probe.loadSpells(f.source, f.path);
      return probe.lastLoad!;
    });
  }

  /** Reload into these zones (after a trial passed). */
  apply(zones: Iterable<ZoneRuntime>, files: readonly SpellSource[]): void {
    for (const f of files) this.current.set(f.path, f.source);
    for (const zone of zones) for (const f of files) zone.world.loadSpells(f.source, f.path);
  }
}

/** One line saying what a reload changed. */
export function describeReload(reports: readonly SpellsReload[], where: string): string {
  return reports
    .map((r) => {
      const parts = [['changed', r.changed], ['added', r.added], ['removed', r.removed]].filter(([, names]) => names.length > 0).map(([what, names]) => `${what} ${(names as string[]).join(', ')}`);
      return `cantrip serve: reloaded ${r.sourceName} ${where}: ${parts.length > 0 ? parts.join('; ') : 'no spell changed'}.`;
    })
    .join('\n');
}

/**
 * Watch the scenario's spell files (`--watch`): each change read and handed to `changed` once its text
 * differs from what was loaded. Polls (fs.watchFile): editors that save by renaming a new file over the old
 * one are seen too. Returns a function that stops watching.
 */
export function watchSpellFiles(paths: readonly string[], changed: (file: SpellSource) => void, intervalMs = 250): () => void {
  const last = new Map(paths.map((p) => [p, readOrNull(p)]));
  for (const path of paths) {
    watchFile(path, { interval: intervalMs }, () => {
      const source = readOrNull(path);
      if (source === null || source === last.get(path)) return;
      last.set(path, source);
      changed({ path, source });
    });
  }
  return () => {
    for (const path of paths) unwatchFile(path);
  };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
