/**
 * Pure helpers for building the playground's world: which library spell
 * files to load beside the editor's source, and breeds trimmed to the
 * behaviour spells that are actually loaded (a breed naming a spell nobody
 * defined would be rejected by the world).
 */

export interface SpellFile {
  readonly name: string;
  readonly source: string;
  /** The spells the file declares. */
  readonly spells: readonly string[];
}

/**
 * Library files that add behaviour without clashing with the editor's
 * source: each must declare at least one spell and none the source declares
 * (the world refuses a spell defined twice).
 */
export function libraryFilesFor(library: readonly SpellFile[], sourceSpells: readonly string[]): SpellFile[] {
  const mine = new Set(sourceSpells);
  const taken = new Set<string>();
  const chosen: SpellFile[] = [];
  for (const file of library) {
    if (file.spells.length === 0 || file.spells.some((s) => mine.has(s) || taken.has(s))) continue;
    for (const s of file.spells) taken.add(s);
    chosen.push(file);
  }
  return chosen;
}

/** A copy of breeds data (`{"breeds": [...]}`) keeping only spell slots whose spell is in `available`. */
export function keepKnownSpells(data: unknown, available: ReadonlySet<string>): { data: unknown; dropped: string[] } {
  const dropped: string[] = [];
  if (typeof data !== 'object' || data === null || !Array.isArray((data as { breeds?: unknown }).breeds)) return { data, dropped };
  const breeds = (data as { breeds: unknown[] }).breeds.map((breed) => {
    if (typeof breed !== 'object' || breed === null) return breed;
    const spells = (breed as { spells?: unknown }).spells;
    if (typeof spells !== 'object' || spells === null) return breed;
    const kept: Record<string, unknown> = {};
    for (const [slot, name] of Object.entries(spells)) {
      if (typeof name === 'string' && available.has(name)) kept[slot] = name;
      else dropped.push(`${String((breed as { name?: unknown }).name)}.${slot}`);
    }
    return { ...breed, spells: kept };
  });
  return { data: { ...(data as object), breeds }, dropped };
}
