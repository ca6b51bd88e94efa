/**
 * Applies the view settings (viewSettings.ts) to the page: the theme on the
 * document (CSS variables), the editor's theme, the code font size in the
 * editor, the bytecode panel and the console, and the canvas colours.
 */
import { THEME_ID } from './editor/cantripLanguage.js';
import { LIGHT_THEME_ID } from './editor/lightTheme.js';
import { monaco } from './editor/monaco.js';
import type { PlaygroundApp } from './app.js';
import type { WorldPanel } from './panels/worldPanel.js';
import { DEFAULT_VIEW, clampFontSize, editorLineHeight, loadViewSettings, saveViewSettings, type ThemeName, type ViewSettings } from './viewSettings.js';

/** The editor theme that goes with a page theme. */
export function editorTheme(theme: ThemeName): string {
  return theme === 'light' ? LIGHT_THEME_ID : THEME_ID;
}

/** The page's colours and code size (CSS variables) for these settings: set before the first paint too (main.ts), so a light page never flashes dark. */
export function applyToDocument({ theme, fontSize }: ViewSettings): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.setProperty('--code-size', `${fontSize}px`);
}

export class ViewControls {
  private settings: ViewSettings = loadViewSettings();

  constructor(
    private readonly app: PlaygroundApp,
    private readonly world: WorldPanel,
  ) {
    // The light theme is defined with the editor (openEditor.ts).
    this.apply();
    document.getElementById('theme-toggle')?.addEventListener('click', () => this.toggleTheme());
    document.getElementById('font-smaller')?.addEventListener('click', () => this.zoomFont(-1));
    document.getElementById('font-larger')?.addEventListener('click', () => this.zoomFont(+1));
  }

  get current(): ViewSettings {
    return this.settings;
  }

  toggleTheme(): void {
    this.setTheme(this.settings.theme === 'dark' ? 'light' : 'dark');
  }

  setTheme(theme: ThemeName): void {
    this.update({ ...this.settings, theme });
  }

  /** One step bigger (+1) or smaller (-1); 0 resets. */
  zoomFont(step: number): void {
    this.update({ ...this.settings, fontSize: step === 0 ? DEFAULT_VIEW.fontSize : clampFontSize(this.settings.fontSize + step) });
  }

  private update(next: ViewSettings): void {
    this.settings = next;
    saveViewSettings(next);
    this.apply();
  }

  private apply(): void {
    const { theme, fontSize } = this.settings;
    applyToDocument(this.settings);
    monaco.editor.setTheme(editorTheme(theme));
    // The editor starts with the saved size (spellEditor.ts): laying it out again costs a frame's worth at start-up.
    const editor = this.app.editor.editor;
    const { EditorOption } = monaco.editor;
    if (editor.getOption(EditorOption.fontSize) !== fontSize || editor.getOption(EditorOption.lineHeight) !== editorLineHeight(fontSize)) {
      editor.updateOptions({ fontSize, lineHeight: editorLineHeight(fontSize) });
    }
    this.app.bytecode.setRowHeight(Math.round(fontSize * 1.35));
    this.world.refreshColours();
    const toggle = document.getElementById('theme-toggle');
    if (toggle) {
      toggle.textContent = theme === 'dark' ? '☀' : '☾';
      toggle.title = `Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`;
    }
    const size = document.getElementById('font-size');
    if (size) size.textContent = String(fontSize);
  }
}
