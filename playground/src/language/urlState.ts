/**
 * The editor state in the URL hash, compressed with lz-string as the
 * TypeScript Playground does: `#code/<compressed JSON>`.
 */
import LZString from 'lz-string';

export interface PlaygroundState {
  readonly source: string;
  /** Breeds JSON text; absent means the default breeds. */
  readonly breeds?: string;
}

const PREFIX = '#code/';

export function encodeStateToHash(state: PlaygroundState): string {
  const payload: { v: 1; s: string; b?: string } = { v: 1, s: state.source };
  if (state.breeds !== undefined) payload.b = state.breeds;
  return PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify(payload));
}

/** null for an empty, foreign or corrupted hash (never throws: a bad link must not blank the page). */
export function decodeStateFromHash(hash: string): PlaygroundState | null {
  if (!hash.startsWith(PREFIX)) return null;
  const json = LZString.decompressFromEncodedURIComponent(hash.slice(PREFIX.length));
  if (!json) return null;
  try {
    const data: unknown = JSON.parse(json);
    if (typeof data !== 'object' || data === null) return null;
    const { s, b } = data as { s?: unknown; b?: unknown };
    if (typeof s !== 'string') return null;
    return typeof b === 'string' ? { source: s, breeds: b } : { source: s };
  } catch {
    return null;
  }
}

/** The full share link for a page URL (any existing hash replaced). */
export function shareUrl(pageUrl: string, state: PlaygroundState): string {
  const base = pageUrl.split('#')[0]!;
  return base + encodeStateToHash(state);
}
