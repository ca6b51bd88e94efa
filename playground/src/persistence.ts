/**
 * Where the editor state lives between visits: the URL hash (a shared link)
 * wins over localStorage (autosave), which wins over the default example.
 */
import { decodeStateFromHash, type PlaygroundState } from './language/urlState.js';

const STORAGE_KEY = 'cantrip.playground.v1';

export function loadSavedState(): PlaygroundState | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const data: unknown = JSON.parse(raw);
    if (typeof data !== 'object' || data === null) return null;
    const { source, breeds } = data as { source?: unknown; breeds?: unknown };
    if (typeof source !== 'string') return null;
    return typeof breeds === 'string' ? { source, breeds } : { source };
  } catch {
    return null;
  }
}

export function saveState(state: PlaygroundState): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or disabled (private mode): autosave is best effort.
  }
}

export function initialState(hash: string, fallback: PlaygroundState): { state: PlaygroundState; from: 'link' | 'autosave' | 'default' } {
  const linked = decodeStateFromHash(hash);
  if (linked) return { state: linked, from: 'link' };
  const saved = loadSavedState();
  if (saved) return { state: saved, from: 'autosave' };
  return { state: fallback, from: 'default' };
}
