/**
 * What makes the page ready: the editor holding the opening text (a shared
 * link, the autosave or the default example), highlighted and in the saved
 * theme. Nothing here loads the compiler, the runtime or the VM: main.ts
 * loads them (startPlayground.ts) as a chunk of their own while this runs,
 * and they take over this editor when they arrive.
 */
import { registerCantrip } from './editor/cantripLanguage.js';
import { defineLightTheme } from './editor/lightTheme.js';
import { SpellEditor } from './editor/spellEditor.js';
import { DEFAULT_BREEDS_JSON } from './defaultBreeds.js';
import { defaultExample, isUserWork, loadExamples, type Example } from './examples.js';
import { PLAYGROUND_HOSTS } from './hostTable.js';
import { initialState, loadSavedBreakpoints, type InitialSource } from './persistence.js';
import { applyToDocument, editorTheme } from './viewControls.js';
import { loadViewSettings } from './viewSettings.js';

export interface OpenedEditor {
  readonly editor: SpellEditor;
  readonly examples: Example[];
  /** The example a first visit opens. */
  readonly fallback: Example;
  /** Where the opening text came from, and whether the user's own text was set aside as the draft for it. */
  readonly from: InitialSource;
  readonly keptDraft: boolean;
  /** performance.now() when the editor took input (navigation start = 0). */
  readonly readyAt: number;
}

export function openEditor(host: HTMLElement): OpenedEditor {
  const view = loadViewSettings();
  applyToDocument(view);
  registerCantrip(PLAYGROUND_HOSTS.map((h) => h.name));
  defineLightTheme();
  const examples = loadExamples();
  const fallback = defaultExample(examples);
  const { state, from, keptDraft } = initialState(location.hash, { source: fallback.source, breeds: DEFAULT_BREEDS_JSON }, (s) => isUserWork(examples, s));
  const editor = new SpellEditor(host, state.source, state.breeds ?? DEFAULT_BREEDS_JSON, editorTheme(view.theme));
  // The breakpoints autosaved with this text come back with it (a link or an example brings none).
  if (from === 'autosave') editor.setBreakpoints(loadSavedBreakpoints());
  return { editor, examples, fallback, from, keptDraft, readyAt: performance.now() };
}
