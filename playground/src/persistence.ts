/**
 * Where the editor state lives between visits: the URL hash (a shared link)
 * wins over localStorage (autosave), which wins over the default example.
 *
 * Nothing a user typed is ever dropped: when a link or an example replaces
 * text that is the user's own (not an unmodified example), that text is kept
 * as the draft, which the Examples menu brings back.
 */
import { decodeStateFromHash, type PlaygroundState } from './language/urlState.js';

const STORAGE_KEY = 'cantrip.playground.v1';
const DRAFT_KEY = 'cantrip.playground.draft.v1';

/** An autosaved session: the state, the address hash the page had when it was saved, the spell's breakpoints and the spell picked in the spell menu. */
interface SavedSession {
  readonly state: PlaygroundState;
  readonly hash: string;
  readonly breakpoints: readonly number[];
  readonly spell: string | null;
}

/** What goes with the autosaved text but never into a link: where the user was in it. */
export interface SessionExtras {
  readonly breakpoints?: readonly number[];
  /** The spell picked in the spell menu. */
  readonly spell?: string | null;
}

function readSession(key: string): SavedSession | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const data: unknown = JSON.parse(raw);
    if (typeof data !== 'object' || data === null) return null;
    const { source, breeds, hash, breakpoints, spell } = data as { source?: unknown; breeds?: unknown; hash?: unknown; breakpoints?: unknown; spell?: unknown };
    if (typeof source !== 'string') return null;
    const lines = Array.isArray(breakpoints) ? breakpoints.filter((l): l is number => Number.isInteger(l) && l >= 1) : [];
    return {
      state: typeof breeds === 'string' ? { source, breeds } : { source },
      hash: typeof hash === 'string' ? hash : '',
      breakpoints: lines,
      spell: typeof spell === 'string' && spell !== '' ? spell : null,
    };
  } catch {
    return null;
  }
}

function readState(key: string): PlaygroundState | null {
  try {
    const raw = localStorage.getItem(key);
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

function writeState(key: string, state: PlaygroundState, hash = '', extras: SessionExtras = {}): void {
  const { breakpoints = [], spell = null } = extras;
  try {
    localStorage.setItem(key, JSON.stringify({ ...state, hash, ...(breakpoints.length > 0 ? { breakpoints } : {}), ...(spell !== null ? { spell } : {}) }));
  } catch {
    // Storage full or disabled (private mode): autosave is best effort.
  }
}

export function loadSavedState(): PlaygroundState | null {
  return readSession(STORAGE_KEY)?.state ?? null;
}

/** Autosave; `hash` is the page's address hash now (a shared link the text descends from, or ''); the breakpoints and the picked spell go with the text (never into links). */
export function saveState(state: PlaygroundState, hash = '', extras: SessionExtras = {}): void {
  writeState(STORAGE_KEY, state, hash, extras);
}

/** The breakpoints autosaved with the session's text. */
export function loadSavedBreakpoints(): readonly number[] {
  return readSession(STORAGE_KEY)?.breakpoints ?? [];
}

/** The spell that was picked in the spell menu when the session was autosaved, or null. */
export function loadSavedSpell(): string | null {
  return readSession(STORAGE_KEY)?.spell ?? null;
}

/** The user's own spell, set aside when an example or a link replaced it. */
export function loadDraft(): PlaygroundState | null {
  return readState(DRAFT_KEY);
}

export function saveDraft(state: PlaygroundState): void {
  writeState(DRAFT_KEY, state);
}

export type InitialSource = 'link' | 'autosave' | 'default';

/**
 * The state to open with. Reloading a page whose link the user went on
 * editing reopens the edits (the autosave was made under that same hash),
 * never the older linked text. Another link's text replaces the autosaved
 * session only after that session is kept as the draft (when it is the
 * user's own work and differs from the link); `keptDraft` says so.
 */
export function initialState(
  hash: string,
  fallback: PlaygroundState,
  isUserWork: (source: string) => boolean,
): { state: PlaygroundState; from: InitialSource; keptDraft: boolean } {
  const linked = decodeStateFromHash(hash);
  const session = readSession(STORAGE_KEY);
  const saved = session?.state ?? null;
  if (linked && session !== null && session.hash === hash) return { state: session.state, from: 'autosave', keptDraft: false };
  if (linked) {
    const keep = saved !== null && saved.source !== linked.source && isUserWork(saved.source);
    if (keep) saveDraft(saved);
    return { state: linked, from: 'link', keptDraft: keep };
  }
  if (saved) return { state: saved, from: 'autosave', keptDraft: false };
  return { state: fallback, from: 'default', keptDraft: false };
}
