/**
 * How the page looks, chosen by the user and kept in this browser: the
 * colour theme (dark or light) and the code font size, shared by the
 * editor, the bytecode panel and the console.
 */

export type ThemeName = 'dark' | 'light';

export interface ViewSettings {
  readonly theme: ThemeName;
  /** Code font size in CSS pixels. */
  readonly fontSize: number;
}

export const MIN_FONT_SIZE = 9;
export const MAX_FONT_SIZE = 28;
export const DEFAULT_VIEW: ViewSettings = { theme: 'dark', fontSize: 13 };

const STORAGE_KEY = 'cantrip.playground.view.v1';

/** The editor's line height for a code font size. */
export function editorLineHeight(fontSize: number): number {
  return Math.round(fontSize * 1.45);
}

export function clampFontSize(size: number): number {
  return Math.max(MIN_FONT_SIZE, Math.min(MAX_FONT_SIZE, Math.round(size)));
}

/** Saved settings, or the defaults (never throws: storage may be off or hold garbage). */
export function loadViewSettings(): ViewSettings {
  try {
    const data: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (typeof data !== 'object' || data === null) return DEFAULT_VIEW;
    const { theme, fontSize } = data as { theme?: unknown; fontSize?: unknown };
    return {
      theme: theme === 'light' ? 'light' : 'dark',
      fontSize: typeof fontSize === 'number' && Number.isFinite(fontSize) ? clampFontSize(fontSize) : DEFAULT_VIEW.fontSize,
    };
  } catch {
    return DEFAULT_VIEW;
  }
}

export function saveViewSettings(settings: ViewSettings): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Best effort, as the autosave.
  }
}
