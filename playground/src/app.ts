/**
 * The playground page: wires the editor, the compile loop, the bytecode
 * panel, the console, the world and the debugger together. Each panel owns
 * its DOM; this file only routes events between them.
 */
import type { HostFunctionSpec } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { SpellEditor } from './editor/spellEditor.js';
import { registerCantrip } from './editor/cantripLanguage.js';
import { MAX_LIVE_SOURCE, compileSpell, type CompileOutcome } from './engine.js';
import { defaultExample, loadExamples, type Example } from './examples.js';
import { declaredSpells, type LanguageContext } from './language/completions.js';
import { markerForLine } from './language/markers.js';
import { shareUrl } from './language/urlState.js';
import { BytecodePanel, PALETTE_SIZE } from './panels/bytecodePanel.js';
import { ConsolePanel } from './panels/consolePanel.js';
import { ProblemsPanel } from './panels/problemsPanel.js';
import { initialState, saveState } from './persistence.js';
import type { PlaygroundBackend } from './backend.js';

const COMPILE_DEBOUNCE_MS = 120;
const CAST_TITLE = 'Cast the spell from the caster on the target (Ctrl/Cmd+Enter)';

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

export class PlaygroundApp {
  readonly console: ConsolePanel;
  readonly problems: ProblemsPanel;
  private breedsErrors = 0;
  readonly bytecode: BytecodePanel;
  readonly editor: SpellEditor;
  readonly examples: Example[];
  private compileTimer: number | undefined;
  private breedsTimer: number | undefined;
  private lastOutcome: CompileOutcome = { module: null, diagnostics: [], markers: [] };
  /** The newest module that compiled without errors. */
  lastGoodModule: Module | null = null;
  /** The source lastGoodModule came from. */
  lastGoodSource = '';
  compileCount = 0;
  /** Set by the world controls: an example was loaded (it may come with a world layout of its own). */
  onExampleLoaded: (name: string) => void = () => {};

  constructor(readonly backend: PlaygroundBackend) {
    this.examples = loadExamples();
    this.console = new ConsolePanel(byId('console'), (line, text) => this.jumpToError(line, text));
    this.problems = new ProblemsPanel(byId('problems'), (tab, line, column) => this.editor.goToLine(line, column, tab));
    this.bytecode = new BytecodePanel(byId('bytecode'), byId('bytecode-info'), {
      onHoverLine: (line) => this.editor.highlightLinkedLine(line, true),
      onClickLine: (line) => this.editor.goToLine(line),
    });
    registerCantrip(backend.hostSpecs().map((h) => h.name), () => this.languageContext());
    const fallback = defaultExample(this.examples);
    const { state, from } = initialState(location.hash, { source: fallback.source, breeds: backend.defaultBreeds() });
    this.editor = new SpellEditor(byId('editor'), state.source, state.breeds ?? backend.defaultBreeds(), {
      onSpellChange: () => this.scheduleCompile(),
      onBreedsChange: () => this.scheduleBreedsCheck(),
      onHoverLine: (line) => this.bytecode.highlightLine(line, true),
      onCursorLine: (line) => this.bytecode.highlightLine(line, true),
      onBreakpointsChange: (lines) => backend.setBreakpoints(lines),
      onCast: () => this.cast(),
      onTabChange: (tab) => {
        for (const t of document.querySelectorAll<HTMLElement>('.tabs button[data-tab]')) t.classList.toggle('active', t.dataset.tab === tab);
      },
    });
    this.wireToolbar();
    this.fillExamples();
    this.recompile();
    this.checkBreeds();
    if (from === 'link') this.console.info('Opened the spell from the shared link.');
    else if (from === 'autosave') this.console.info('Restored your last session (autosaved in this browser).');
    else this.console.info(`Loaded example "${fallback.name}". Click a caster, then a target on the map, and press Cast (Ctrl/Cmd+Enter).`);
  }

  languageContext(): LanguageContext {
    return { hosts: this.backend.hostSpecs(), breeds: this.backend.breedSummaries(), entityProperties: this.backend.entityProperties() };
  }

  get outcome(): CompileOutcome {
    return this.lastOutcome;
  }

  private wireToolbar(): void {
    byId('run').addEventListener('click', () => this.run());
    byId('cast').addEventListener('click', () => this.cast());
    byId('share').addEventListener('click', () => void this.share());
    byId('clear-console').addEventListener('click', () => this.console.clear());
    byId<HTMLSelectElement>('examples').addEventListener('change', (e) => {
      const select = e.target as HTMLSelectElement;
      const example = this.examples.find((x) => x.name === select.value);
      select.value = '';
      if (example) this.loadExample(example);
    });
    for (const tab of document.querySelectorAll<HTMLButtonElement>('.tabs button[data-tab]')) {
      tab.addEventListener('click', () => this.editor.showTab(tab.dataset.tab === 'breeds' ? 'breeds' : 'spell'));
    }
  }

  private fillExamples(): void {
    const select = byId<HTMLSelectElement>('examples');
    select.replaceChildren(new Option('Examples…', ''), ...this.examples.map((e) => new Option(e.name, e.name)));
  }

  loadExample(example: Example): void {
    this.editor.setSource(example.source);
    this.editor.setBreakpoints([]);
    this.recompileNow();
    this.onExampleLoaded(example.name);
    const spells = this.lastOutcome.module?.spells.map((s) => s.name) ?? [];
    this.console.info(
      spells.length === 0
        ? `Loaded example "${example.name}": a script with no spell — press Run.`
        : `Loaded example "${example.name}": pick a spell, a caster and a target, and press Cast.`,
    );
  }

  private scheduleCompile(): void {
    window.clearTimeout(this.compileTimer);
    this.compileTimer = window.setTimeout(() => this.recompile(true), COMPILE_DEBOUNCE_MS);
  }

  /** Compile now (also used by Run/Cast so they never act on a stale module). */
  recompileNow(): { compile: number; total: number } {
    window.clearTimeout(this.compileTimer);
    this.compileTimer = undefined;
    return this.recompile();
  }

  /**
   * One keystroke's work: compile and re-mark now; the bytecode panel, line
   * colours and spell menu follow in the next frame when `deferPanels` (typing),
   * at once otherwise (Run, Cast, examples). Returns the timings (ms).
   */
  private recompile(deferPanels = false): { compile: number; total: number } {
    const t0 = performance.now();
    const source = this.editor.source;
    const outcome = compileSpell(source, this.backend.hostSpecs());
    this.compileCount++;
    this.lastOutcome = outcome;
    this.editor.setSpellMarkers('compiler', outcome.markers);
    this.problems.setSpell(outcome.markers);
    this.editor.setSpellMarkers('runtime', []);
    const t1 = performance.now();
    if (outcome.module) {
      this.lastGoodModule = outcome.module;
      this.lastGoodSource = source;
    }
    if (deferPanels) {
      this.schedulePanels();
      return { compile: t1 - t0, total: performance.now() - t0 };
    }
    this.refreshPanels();
    return { compile: t1 - t0, total: performance.now() - t0 };
  }

  private panelsFrame = 0;

  private schedulePanels(): void {
    if (this.panelsFrame !== 0) return;
    this.panelsFrame = requestAnimationFrame(() => {
      this.panelsFrame = 0;
      this.refreshPanels();
    });
  }

  /** Everything that follows a compile besides the markers. */
  private refreshPanels(): void {
    if (this.panelsFrame !== 0) {
      cancelAnimationFrame(this.panelsFrame);
      this.panelsFrame = 0;
    }
    const outcome = this.lastOutcome;
    const source = this.editor.source;
    this.bytecode.show(outcome.module);
    this.editor.setLineColours(outcome.module ? this.bytecode.lineMap.linesWithCode() : [], PALETTE_SIZE);
    this.updateSpellList(source);
    this.updateStatus();
    this.autosave();
  }

  private updateStatus(): void {
    const status = byId('status');
    const errors = this.lastOutcome.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = this.lastOutcome.diagnostics.length - errors;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const spell = errors > 0 ? plural(errors, 'error') : warnings > 0 ? `compiled · ${plural(warnings, 'warning')}` : 'compiled';
    const breeds = this.breedsErrors > 0 ? ` · breeds.json: ${plural(this.breedsErrors, 'error')}` : '';
    status.className = `status ${errors > 0 || this.breedsErrors > 0 ? 'error' : 'ok'}`;
    status.textContent = spell + breeds;
  }

  private updateSpellList(source: string): void {
    const select = byId<HTMLSelectElement>('spell-select');
    const spells = this.lastOutcome.module ? this.lastOutcome.module.spells.map((s) => s.name) : declaredSpells(source);
    const previous = select.value;
    const current = [...select.options].map((o) => o.value);
    if (spells.length === 0) {
      // A plain script: say so rather than show an empty menu.
      if (current.length !== 1 || current[0] !== '') select.replaceChildren(new Option('(none)', ''));
    } else if (current.join('\n') !== spells.join('\n')) {
      select.replaceChildren(...spells.map((s) => new Option(s, s)));
      if (spells.includes(previous)) select.value = previous;
    }
    select.disabled = spells.length === 0;
    const cast = byId<HTMLButtonElement>('cast');
    cast.disabled = spells.length === 0;
    cast.title = spells.length === 0 ? 'This source declares no spell: press Run to run its top-level code' : CAST_TITLE;
  }

  selectedSpell(): string | null {
    const value = byId<HTMLSelectElement>('spell-select').value;
    return value === '' ? null : value;
  }

  private scheduleBreedsCheck(): void {
    window.clearTimeout(this.breedsTimer);
    this.breedsTimer = window.setTimeout(() => this.checkBreeds(), COMPILE_DEBOUNCE_MS);
  }

  private checkBreeds(): void {
    const markers = this.backend.loadBreeds(this.editor.breeds);
    this.editor.setBreedsMarkers(markers);
    this.problems.setBreeds(markers);
    this.breedsErrors = markers.filter((m) => m.severity === 'error').length;
    this.updateStatus();
    document.querySelector('.tabs button[data-tab="breeds"]')?.classList.toggle('invalid', markers.length > 0);
    this.autosave();
  }

  private autosave(): void {
    saveState({ source: this.editor.source, breeds: this.editor.breeds });
  }

  /** A module to run, or null after reporting why there is none. */
  private moduleForRun(): Module | null {
    this.recompileNow();
    const module = this.lastOutcome.module;
    if (module) return module;
    const first = this.lastOutcome.diagnostics.find((d) => d.severity === 'error');
    this.console.error(`Cannot run: the spell has compile errors${first ? ` (line ${first.line}: ${first.message})` : ''}.`, first?.line ?? null);
    return null;
  }

  run(): void {
    const module = this.moduleForRun();
    if (module) this.backend.runScript(module);
  }

  cast(): void {
    const module = this.moduleForRun();
    if (!module) return;
    const spell = this.selectedSpell() ?? module.spells[0]?.name ?? null;
    if (spell === null) {
      this.console.info('This source declares no spell; running the script instead.');
      this.backend.runScript(module);
      return;
    }
    this.backend.cast(module, spell, this.editor.source);
  }

  /** Clicking an error in the console: go to its line and (re)show the marker there. */
  jumpToError(line: number, text: string): void {
    const message = text.split('\n')[0]!;
    const compileMarker = this.lastOutcome.markers.some((m) => m.startLineNumber === line);
    if (!compileMarker) this.editor.setSpellMarkers('runtime', [markerForLine(message, line, this.editor.source, 'runtime')]);
    this.editor.goToLine(line);
  }

  /** A runtime error shows in the console (clickable) and as a marker on its line. */
  reportRuntimeError(text: string, line: number | null): void {
    this.console.error(text, line);
    if (line !== null) this.editor.setSpellMarkers('runtime', [markerForLine(text.split('\n')[0]!, line, this.editor.source, 'runtime')]);
  }

  async share(): Promise<string> {
    if (this.editor.source.length + this.editor.breeds.length > MAX_LIVE_SOURCE) {
      this.console.error('This spell is too large to share in a link.');
      return location.href;
    }
    const url = shareUrl(location.href, { source: this.editor.source, breeds: this.editor.breeds });
    history.replaceState(null, '', url);
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // Clipboard may be unavailable (insecure context, headless); the address bar holds the link anyway.
    }
    toast(copied ? 'Link copied to the clipboard.' : 'Link is in the address bar.');
    this.console.info(`Share link: ${url.length > 120 ? url.slice(0, 117) + '…' : url}`);
    return url;
  }

  hostSpecs(): readonly HostFunctionSpec[] {
    return this.backend.hostSpecs();
  }
}

function toast(text: string): void {
  const el = document.createElement('div');
  el.className = 'toast';
  el.textContent = text;
  document.body.append(el);
  window.setTimeout(() => el.remove(), 2000);
}
