/**
 * The Monaco editor as the playground uses it: two models (the spell and the
 * breeds JSON) in one editor, markers, the line colours shared with the
 * bytecode panel, the linked-line highlight, gutter breakpoints and the
 * debugger's current line.
 */
import { LANGUAGE_ID } from '../language/monarch.js';
import type { MarkerData } from '../language/markers.js';
import { colourIndexForLine } from '../language/bytecodeMap.js';
import { THEME_ID, toMonacoMarkers } from './cantripLanguage.js';
import { monaco } from './monaco.js';
import { ModelDecorations } from './modelDecorations.js';
import { BREEDS_URI, SPELL_URI } from '../language/documentUris.js';
import { editorLineHeight, loadViewSettings } from '../viewSettings.js';

/** Lines beyond the viewport that still get their colour (smooth scrolling). */
const COLOUR_MARGIN = 80;

export type EditorTab = 'spell' | 'breeds';

export interface SpellEditorEvents {
  onSpellChange(): void;
  onBreedsChange(): void;
  onHoverLine(line: number | null): void;
  onCursorLine(line: number): void;
  onBreakpointsChange(lines: readonly number[]): void;
  /** The editor switched between the spell and the breeds (a tab click, a jump to a line, the debugger). */
  onTabChange(tab: EditorTab): void;
}

/** Until the page listens (app.ts, once the compiler has loaded), the editor's events change nothing but the editor. */
const UNHEARD: SpellEditorEvents = { onSpellChange() {}, onBreedsChange() {}, onHoverLine() {}, onCursorLine() {}, onBreakpointsChange() {}, onTabChange() {} };

export class SpellEditor {
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  readonly spellModel: monaco.editor.ITextModel;
  readonly breedsModel: monaco.editor.ITextModel;
  private tab: EditorTab = 'spell';
  // On the spell's model, not the editor: they stay while breeds.json shows (modelDecorations.ts).
  private readonly lineColours: ModelDecorations;
  private readonly linkedLine: ModelDecorations;
  private readonly currentLine: ModelDecorations;
  private readonly breakpointDecorations: ModelDecorations;
  /** The faint dot where a click in the gutter would set a breakpoint. */
  private readonly breakpointHint: ModelDecorations;
  private hintLine: number | null = null;
  private readonly breakpoints = new Set<number>();
  /** The lines the compiled spell has code on (null: not compiled, any line may be one). */
  private codeLines: ReadonlySet<number> | null = null;
  private colourLines: readonly number[] = [];
  private paletteSize = 8;
  private readonly viewStates = new Map<EditorTab, monaco.editor.ICodeEditorViewState | null>();
  private events: SpellEditorEvents = UNHEARD;

  /** Made before the rest of the page (main.ts): it takes input at once, and its events reach `listen`'s handlers once they are set. */
  constructor(host: HTMLElement, spellSource: string, breedsSource: string, theme: string = THEME_ID) {
    this.spellModel = monaco.editor.createModel(spellSource, LANGUAGE_ID, monaco.Uri.parse(SPELL_URI));
    this.breedsModel = monaco.editor.createModel(breedsSource, 'breeds-json', monaco.Uri.parse(BREEDS_URI));
    const { fontSize } = loadViewSettings();
    this.editor = monaco.editor.create(host, {
      model: this.spellModel,
      theme,
      automaticLayout: true,
      glyphMargin: true,
      minimap: { enabled: false },
      fontSize,
      lineHeight: editorLineHeight(fontSize),
      fontFamily: "'DejaVu Sans Mono', Menlo, Consolas, monospace",
      scrollBeyondLastLine: false,
      tabSize: 2,
      lineDecorationsWidth: 8,
      renderLineHighlight: 'line',
      fixedOverflowWidgets: true,
      hover: { delay: 250 },
      // In a shadow root the context menu cannot see the theme's colour variables (they are set by a
      // document style sheet on .monaco-component) and draws with no background: render it in the page.
      useShadowDOM: false,
    });
    this.lineColours = new ModelDecorations(this.spellModel);
    this.linkedLine = new ModelDecorations(this.spellModel);
    this.currentLine = new ModelDecorations(this.spellModel);
    this.breakpointDecorations = new ModelDecorations(this.spellModel);
    this.breakpointHint = new ModelDecorations(this.spellModel);
    this.wireEvents();
  }

  /** Where the editor's events go from now on. */
  listen(events: SpellEditorEvents): void {
    this.events = events;
  }

  private wireEvents(): void {
    this.spellModel.onDidChangeContent(() => {
      this.shiftBreakpointsToDecorations();
      this.events.onSpellChange();
    });
    this.breedsModel.onDidChangeContent(() => this.events.onBreedsChange());
    this.editor.onMouseMove((e) => {
      if (this.tab !== 'spell') return;
      this.events.onHoverLine(e.target.position?.lineNumber ?? null);
      const T = monaco.editor.MouseTargetType;
      const inGutter = e.target.type === T.GUTTER_GLYPH_MARGIN || e.target.type === T.GUTTER_LINE_DECORATIONS;
      this.showBreakpointHint(inGutter ? (e.target.position?.lineNumber ?? null) : null);
    });
    this.editor.onMouseLeave(() => {
      this.events.onHoverLine(null);
      this.showBreakpointHint(null);
    });
    this.editor.onDidScrollChange((e) => {
      if (e.scrollTopChanged && this.tab === 'spell') this.renderLineColours();
    });
    this.editor.onDidChangeCursorPosition((e) => {
      if (this.tab === 'spell') this.events.onCursorLine(e.position.lineNumber);
    });
    this.editor.onMouseDown((e) => {
      const T = monaco.editor.MouseTargetType;
      if (this.tab !== 'spell') return;
      if (e.target.type !== T.GUTTER_GLYPH_MARGIN && e.target.type !== T.GUTTER_LINE_DECORATIONS) return;
      const line = e.target.position?.lineNumber;
      if (line !== undefined && this.isOnLine(line, e.event.browserEvent.clientY)) this.toggleBreakpoint(line);
    });
  }

  get activeTab(): EditorTab {
    return this.tab;
  }

  showTab(tab: EditorTab): void {
    if (tab === this.tab) return;
    this.viewStates.set(this.tab, this.editor.saveViewState());
    this.tab = tab;
    this.editor.setModel(tab === 'spell' ? this.spellModel : this.breedsModel);
    const state = this.viewStates.get(tab);
    if (state) this.editor.restoreViewState(state);
    this.editor.updateOptions({ glyphMargin: tab === 'spell' });
    // The colours are drawn for the lines in view only: the spell's view may have scrolled elsewhere.
    if (tab === 'spell') this.renderLineColours();
    this.editor.focus();
    this.events.onTabChange(tab);
  }

  get source(): string {
    return this.spellModel.getValue();
  }

  get breeds(): string {
    return this.breedsModel.getValue();
  }

  setSource(text: string): void {
    this.spellModel.setValue(text);
  }

  /** Replace the whole spell as one edit on the undo stack (Ctrl+Z brings the old text back). */
  replaceSource(text: string): void {
    this.showTab('spell');
    this.spellModel.pushStackElement();
    this.spellModel.pushEditOperations([], [{ range: this.spellModel.getFullModelRange(), text }], () => [new monaco.Selection(1, 1, 1, 1)]);
    this.spellModel.pushStackElement();
    this.editor.setPosition({ lineNumber: 1, column: 1 });
    this.editor.revealLine(1);
  }

  /** An edit at the start of `line` (as typing there would make). */
  insertAt(line: number, text: string): void {
    const range = new monaco.Range(line, 1, line, text === '' ? 2 : 1);
    this.spellModel.pushEditOperations([], [{ range, text }], () => null);
  }

  setBreeds(text: string): void {
    this.breedsModel.setValue(text);
  }

  setSpellMarkers(owner: string, markers: readonly MarkerData[]): void {
    monaco.editor.setModelMarkers(this.spellModel, owner, toMonacoMarkers(markers));
  }

  setBreedsMarkers(markers: readonly MarkerData[]): void {
    monaco.editor.setModelMarkers(this.breedsModel, 'breeds', toMonacoMarkers(markers));
  }

  /** All markers currently on the spell (for tests and the debug hook). */
  spellMarkers(): monaco.editor.IMarker[] {
    return monaco.editor.getModelMarkers({ resource: this.spellModel.uri });
  }

  breedsMarkers(): monaco.editor.IMarker[] {
    return monaco.editor.getModelMarkers({ resource: this.breedsModel.uri });
  }

  /** The bytecode panel's colour for every line that produced code (sorted ascending). */
  setLineColours(lines: readonly number[], paletteSize: number): void {
    this.colourLines = lines;
    this.paletteSize = paletteSize;
    this.renderLineColours();
  }

  /** Only lines near the viewport get decorations, so a long spell costs no more than a short one. */
  private renderLineColours(): void {
    const visible = this.editor.getVisibleRanges();
    const first = Math.max(1, (visible[0]?.startLineNumber ?? 1) - COLOUR_MARGIN);
    const last = (visible[visible.length - 1]?.endLineNumber ?? 100) + COLOUR_MARGIN;
    const lines = this.colourLines.filter((l) => l >= first && l <= last);
    this.lineColours.set(
      lines.map((line) => ({
        range: new monaco.Range(line, 1, line, 1),
        options: { linesDecorationsClassName: `cantrip-line-colour lc${colourIndexForLine(line, this.paletteSize)}` },
      })),
    );
  }

  highlightLinkedLine(line: number | null, reveal = false): void {
    if (line === null) {
      this.linkedLine.clear();
      return;
    }
    this.linkedLine.set([{ range: new monaco.Range(line, 1, line, 1), options: { isWholeLine: true, className: 'cantrip-linked-line' } }]);
    if (reveal && this.tab === 'spell') this.editor.revealLineInCenterIfOutsideViewport(line);
  }

  /** The debugger's current line, or none. */
  setCurrentLine(line: number | null): void {
    if (line === null) {
      this.currentLine.clear();
      return;
    }
    this.showTab('spell');
    this.currentLine.set([
      { range: new monaco.Range(line, 1, line, 1), options: { isWholeLine: true, className: 'cantrip-current-line', glyphMarginClassName: 'cantrip-current-glyph' } },
    ]);
    this.editor.revealLineInCenterIfOutsideViewport(line);
  }

  goToLine(line: number, column = 1, tab: EditorTab = 'spell'): void {
    this.showTab(tab);
    this.editor.revealLineInCenter(line);
    this.editor.setPosition({ lineNumber: line, column });
    this.editor.focus();
  }

  get breakpointLines(): number[] {
    return [...this.breakpoints].sort((a, b) => a - b);
  }

  /**
   * A click on a line: sets a breakpoint on the first line a cast can stop
   * at from there (a comment or blank line is never hit, so the breakpoint
   * goes where the debugger will stop), or removes the one already there —
   * the same place the faint dot showed while hovering.
   */
  toggleBreakpoint(line: number): void {
    const target = this.breakpoints.has(line) ? line : this.codeLineFrom(line);
    if (target === null) return;
    if (this.breakpoints.has(target)) this.breakpoints.delete(target);
    else this.breakpoints.add(target);
    this.renderBreakpoints();
  }

  /** The lines a cast can stop at (debug/breakableLines.ts): breakpoints on other lines are shown as never hit. */
  setCodeLines(lines: readonly number[] | null): void {
    const next = lines === null ? null : new Set(lines);
    const same = next === null ? this.codeLines === null : this.codeLines !== null && next.size === this.codeLines.size && [...next].every((l) => this.codeLines!.has(l));
    if (same) return;
    this.codeLines = next;
    if (this.breakpoints.size > 0) this.renderBreakpoints(false);
  }

  /** `line` if a cast can stop there, else the next line that can; null below the last such line (nothing there is ever hit). */
  private codeLineFrom(line: number): number | null {
    const code = this.codeLines;
    if (code === null || code.has(line)) return line;
    let next: number | null = null;
    for (const l of code) if (l > line && (next === null || l < next)) next = l;
    return next;
  }

  setBreakpoints(lines: readonly number[]): void {
    this.breakpoints.clear();
    for (const l of lines) this.breakpoints.add(l);
    this.renderBreakpoints();
  }

  /** Monaco reports the last line for a click in the empty gutter below it: only a click on the line itself counts. */
  private isOnLine(line: number, clientY: number): boolean {
    const dom = this.editor.getDomNode();
    if (!dom) return true;
    const top = dom.getBoundingClientRect().top + this.editor.getTopForLineNumber(line) - this.editor.getScrollTop();
    const height = this.editor.getOption(monaco.editor.EditorOption.lineHeight);
    return clientY >= top && clientY < top + height;
  }

  private showBreakpointHint(line: number | null): void {
    // The faint dot shows where a click would put the breakpoint: on this line, or the next a cast can stop at.
    const target = line !== null && !this.breakpoints.has(line) ? this.codeLineFrom(line) : null;
    const shown = target !== null && !this.breakpoints.has(target) ? target : null;
    if (shown === this.hintLine) return;
    this.hintLine = shown;
    if (shown === null) this.breakpointHint.clear();
    else this.breakpointHint.set([{ range: new monaco.Range(shown, 1, shown, 1), options: { glyphMarginClassName: 'cantrip-breakpoint-hint', glyphMarginHoverMessage: { value: 'Click to set a breakpoint' } } }]);
  }

  /** Draw the breakpoints (hollow on a line without code: never hit) and, when `changed`, tell the app the lines. */
  private renderBreakpoints(changed = true): void {
    this.hintLine = null;
    this.breakpointHint.clear();
    this.breakpointDecorations.set(
      this.breakpointLines.map((line) => {
        const active = this.codeLines === null || this.codeLines.has(line);
        return {
          range: new monaco.Range(line, 1, line, 1),
          options: {
            glyphMarginClassName: active ? 'cantrip-breakpoint' : 'cantrip-breakpoint cantrip-breakpoint-inactive',
            glyphMarginHoverMessage: { value: active ? 'Breakpoint (click to remove)' : 'No code on this line: this breakpoint is never hit (click to remove)' },
            stickiness: 1,
          },
        };
      }),
    );
    if (changed) this.events.onBreakpointsChange(this.breakpointLines);
  }

  /** The breakpoints on lines without code in the compiled spell (never hit). */
  get inactiveBreakpointLines(): number[] {
    return this.codeLines === null ? [] : this.breakpointLines.filter((l) => !this.codeLines!.has(l));
  }

  /** Edits move breakpoint decorations with their lines; read the lines back from them. */
  private shiftBreakpointsToDecorations(): void {
    if (this.breakpoints.size === 0) return;
    const lines = new Set(this.breakpointDecorations.getRanges().map((r) => r.startLineNumber));
    const same = lines.size === this.breakpoints.size && [...lines].every((l) => this.breakpoints.has(l));
    if (same) return;
    this.breakpoints.clear();
    for (const l of lines) this.breakpoints.add(l);
    this.events.onBreakpointsChange(this.breakpointLines);
  }
}
