/**
 * The playground page: wires the editor, the compile loop, the bytecode
 * panel, the console, the world and the debugger together. Each panel owns
 * its DOM; this file only routes events between them.
 */
import type { HostFunctionSpec } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { SpellEditor } from './editor/spellEditor.js';
import { registerLanguageProviders } from './editor/languageProviders.js';
import { MAX_LIVE_SOURCE, compileSpell, type CompileOutcome } from './engine.js';
import { LanguageService, declaredSpells } from '../../compiler/service/index.js';
import { isUserWork, type Example } from './examples.js';
import { markerForLine } from './language/markers.js';
import { decodeStateFromHash, shareUrl } from './language/urlState.js';
import { BytecodePanel, PALETTE_SIZE } from './panels/bytecodePanel.js';
import { ConsolePanel } from './panels/consolePanel.js';
import { ExamplesMenu, type MenuChoice } from './panels/examplesMenu.js';
import { ProblemsPanel } from './panels/problemsPanel.js';
import { loadDraft, loadSavedSpell, saveDraft, saveState } from './persistence.js';
import type { PlaygroundBackend } from './backend.js';
import { parameterName, readsParameter } from './assist/spellParameters.js';
import { breakableLines } from './debug/breakableLines.js';
import { StartupTasks } from './startupTasks.js';
import type { OpenedEditor } from './openEditor.js';

const COMPILE_DEBOUNCE_MS = 120;
/** The address hash follows the editor (once it holds a shared link) this long after the last change. */
const HASH_DEBOUNCE_MS = 300;
const CAST_TITLE = 'Cast the spell from the caster on the target (Ctrl/Cmd+Enter)';
const SHARE_PREFIX = '#code/';

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
  /** The library's language service: diagnostics, completion, hover, navigation, quick fixes. */
  readonly language: LanguageService;
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
  /** Set by the world controls: is a target picked on the map? */
  hasTarget: () => boolean = () => true;
  private readonly examplesMenu: ExamplesMenu;
  /** The example the editor's text started from (null: the user's own, a link, a draft). */
  private openedExample: string | null = null;
  private hashTimer: number | undefined;
  /** The address holds a share link that could not be read: it stays there untouched (until Share) so it can be inspected. */
  private brokenLink = false;
  /** What the page finishes once it is ready (startupTasks.ts): the breeds check, the first compile, the world. */
  readonly startup = new StartupTasks();
  /** The spell the user picked in the spell menu (autosaved): picked again whenever the menu is rebuilt and still lists it. */
  private pickedSpell: string | null = null;

  /** Takes over the editor the page opened before the compiler loaded (openEditor.ts). */
  constructor(readonly backend: PlaygroundBackend, opened: OpenedEditor) {
    this.examples = opened.examples;
    this.console = new ConsolePanel(byId('console'), (line, text) => this.jumpToError(line, text));
    this.problems = new ProblemsPanel(byId('problems'), (tab, line, column) => this.editor.goToLine(line, column, tab));
    this.bytecode = new BytecodePanel(byId('bytecode'), byId('bytecode-info'), {
      onHoverLine: (line) => this.editor.highlightLinkedLine(line, true),
      onClickLine: (line) => this.editor.goToLine(line),
    });
    this.language = new LanguageService(backend.languageWorld());
    registerLanguageProviders((model) => this.analysis(model.uri.toString(), model.getValue()));
    this.examplesMenu = new ExamplesMenu(byId<HTMLSelectElement>('examples'), this.examples, (choice) => this.pickFromMenu(choice));
    const { fallback, from, keptDraft } = opened;
    if (from === 'default') this.openedExample = fallback.name;
    this.editor = opened.editor;
    this.editor.listen({
      onSpellChange: () => this.scheduleCompile(),
      onBreedsChange: () => this.scheduleBreedsCheck(),
      onHoverLine: (line) => this.bytecode.highlightLine(line, true),
      onCursorLine: (line) => this.bytecode.highlightLine(line, true),
      onBreakpointsChange: (lines) => {
        backend.setBreakpoints(lines);
        this.autosave();
      },
      onTabChange: (tab) => {
        for (const t of document.querySelectorAll<HTMLElement>('.tabs button[data-tab]')) t.classList.toggle('active', t.dataset.tab === tab);
      },
    });
    // The editor shows the autosaved breakpoints already (openEditor.ts) and may have new ones from the gutter: the debugger gets them all.
    if (from === 'autosave') this.pickedSpell = loadSavedSpell();
    backend.setBreakpoints(this.editor.breakpointLines);
    this.wireToolbar();
    // Once the editor takes input. Breeds first: the compiler warns about entity properties they do not define.
    this.startup.later(() => {
      this.checkBreeds();
      this.recompile();
    });
    // Whatever happens next (a reload, closing the tab), the newest text is saved.
    window.addEventListener('beforeunload', () => this.saveOnLeave());
    // A link pasted into the address bar of an open page changes only the hash: open it as a link.
    window.addEventListener('hashchange', () => this.openLinkedState());
    if (from !== 'link' && this.reportBrokenLink()) return;
    if (from === 'link') {
      this.console.info('Opened the spell from the shared link.' + (keptDraft ? ' Your previous spell is kept: pick "↩ Your draft" in Examples.' : ''));
    }
    else if (from === 'autosave') this.console.info('Restored your last session (autosaved in this browser).');
    else this.console.info(`Loaded example "${fallback.name}". Click a caster, then a target on the map, and press Cast (Ctrl/Cmd+Enter).`);
  }

  /** The language service's analysis of a text, against the current host API and breeds (one compile per version, shared by the compile loop and every editor feature). */
  analysis(uri: string, text: string) {
    this.syncLanguageWorld();
    return this.language.document(uri, text);
  }

  /** New breeds make a new world: the service analyses again against it. */
  private syncLanguageWorld(): void {
    const world = this.backend.languageWorld();
    if (this.language.world !== world) this.language.setWorld(world);
  }

  get outcome(): CompileOutcome {
    return this.lastOutcome;
  }

  private wireToolbar(): void {
    byId('run').addEventListener('click', () => this.run());
    byId('cast').addEventListener('click', () => this.cast());
    // Off in index.html until the compiler has loaded (these handlers); the first compile refines Cast (updateCastButton).
    for (const id of ['run', 'cast']) byId<HTMLButtonElement>(id).disabled = false;
    byId('cast').title = CAST_TITLE;
    byId('share').addEventListener('click', () => void this.share());
    byId('clear-console').addEventListener('click', () => this.console.clear());
    byId<HTMLSelectElement>('spell-select').addEventListener('change', () => {
      this.pickedSpell = this.selectedSpell();
      this.autosave();
      this.updateCastButton();
    });
    for (const tab of document.querySelectorAll<HTMLButtonElement>('.tabs button[data-tab]')) {
      tab.addEventListener('click', () => this.editor.showTab(tab.dataset.tab === 'breeds' ? 'breeds' : 'spell'));
    }
  }

  /** Text worth keeping: not empty and not an example left as it was. */
  isUserWork(source: string): boolean {
    return isUserWork(this.examples, source);
  }

  private pickFromMenu(choice: MenuChoice): void {
    if (choice.kind === 'example') this.loadExample(choice.example);
    else this.restoreDraft();
  }

  /** Set the user's own text aside as the draft before something replaces it; true when it did. */
  private keepDraft(): boolean {
    if (!this.isUserWork(this.editor.source)) return false;
    saveDraft({ source: this.editor.source, breeds: this.editor.breeds });
    return true;
  }

  /** An example replaces the text as one undoable edit (Ctrl+Z brings the text back); the user's own text is also kept as the draft. */
  loadExample(example: Example): void {
    this.startup.flush();
    const kept = this.keepDraft();
    this.editor.replaceSource(example.source);
    this.openedExample = example.name;
    this.editor.setBreakpoints([]);
    this.recompileNow();
    this.onExampleLoaded(example.name);
    const spells = this.lastOutcome.module?.spells.map((s) => s.name) ?? [];
    this.console.info(
      (spells.length === 0
        ? `Loaded example "${example.name}": a script with no spell — press Run.`
        : `Loaded example "${example.name}": pick a spell, a caster and a target, and press Cast.`) +
        (kept ? ' Your spell is kept: Ctrl+Z, or "↩ Your draft" in Examples.' : ''),
    );
  }

  /** True (after saying so in the console) when the address holds a share link that cannot be read. */
  private reportBrokenLink(): boolean {
    this.brokenLink = location.hash.startsWith(SHARE_PREFIX) && decodeStateFromHash(location.hash) === null;
    if (this.brokenLink) {
      this.console.error('The share link in the address could not be read (cut short or changed?), so it was not opened. It stays in the address bar; the editor shows your last session or the default example.', null);
    }
    return this.brokenLink;
  }

  /** The editor's state for a link: the breeds are left out when they are the default ones (absent means default). */
  private shareState(): { source: string; breeds?: string } {
    const breeds = this.editor.breeds;
    return breeds === this.backend.defaultBreeds() ? { source: this.editor.source } : { source: this.editor.source, breeds };
  }

  /** The address now holds another shared link: open it, keeping the user's text as the draft. */
  private openLinkedState(): void {
    if (this.reportBrokenLink()) return;
    const linked = decodeStateFromHash(location.hash);
    // A link without breeds means the default ones (links leave out what equals the default).
    const breeds = linked?.breeds ?? this.backend.defaultBreeds();
    if (!linked || (linked.source === this.editor.source && breeds === this.editor.breeds)) return;
    const kept = this.keepDraft();
    this.editor.replaceSource(linked.source);
    if (breeds !== this.editor.breeds) this.editor.setBreeds(breeds);
    this.openedExample = null;
    this.recompileNow();
    this.console.info('Opened the spell from the shared link.' + (kept ? ' Your previous spell is kept: pick "↩ Your draft" in Examples.' : ''));
  }

  /** Bring the draft back; the text it replaces, if the user's own, becomes the draft in turn. */
  restoreDraft(): void {
    const draft = loadDraft();
    if (!draft) return;
    const current = { source: this.editor.source, breeds: this.editor.breeds };
    if (this.isUserWork(current.source) && current.source !== draft.source) saveDraft(current);
    this.editor.replaceSource(draft.source);
    if (draft.breeds !== undefined && draft.breeds !== this.editor.breeds) this.editor.setBreeds(draft.breeds);
    this.openedExample = null;
    this.recompileNow();
    this.console.info('Restored your draft.');
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
    this.syncLanguageWorld();
    const outcome = compileSpell(this.language, source);
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
    // Breakpoints go on lines a cast can stop at; without a compiled module, every line may be one.
    this.editor.setCodeLines(outcome.module ? breakableLines(outcome.module) : null);
    this.updateSpellList(source);
    this.updateStatus();
    this.autosave();
    this.examplesMenu.update(source, this.openedExample, loadDraft() !== null);
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
    const declared = this.lastOutcome.module ? this.lastOutcome.module.spells.map((s) => s.name) : declaredSpells(source);
    // Tick spells are the world's to call, every step, with (self, dt): they are listed apart and cannot be picked.
    const ticks = this.backend.tickSpells();
    const spells = declared.filter((s) => !ticks.has(s));
    const ticking = declared.filter((s) => ticks.has(s));
    const previous = select.value;
    const current = [...select.options].map((o) => `${o.value}${o.disabled ? ' (tick)' : ''}`);
    const wanted = [...spells, ...ticking.map((s) => `${s} (tick)`)];
    if (spells.length === 0 && ticking.length === 0) {
      // A plain script: say so rather than show an empty menu.
      if (current.length !== 1 || current[0] !== '') select.replaceChildren(new Option('(none)', ''));
    } else if (current.join('\n') !== wanted.join('\n')) {
      const options: HTMLElement[] = spells.map((s) => new Option(s, s));
      if (ticking.length > 0) {
        const group = document.createElement('optgroup');
        group.label = 'run every tick by breeds';
        for (const s of ticking) {
          const option = new Option(s, s);
          option.disabled = true;
          option.title = `${s} is a breed's tick spell: the world calls it every step with (self, dt); it is not cast by hand`;
          group.append(option);
        }
        options.push(group);
      }
      select.replaceChildren(...options);
      const picked = this.pickedSpell;
      if (picked !== null && spells.includes(picked)) select.value = picked;
      else if (spells.includes(previous)) select.value = previous;
    }
    select.disabled = spells.length === 0;
    this.updateCastButton();
  }

  /**
   * Cast is on when the spell's parameters can be filled: a spell that reads
   * its target needs one picked on the map (the tooltip says so); a spell
   * that never reads it casts with a nil target.
   */
  updateCastButton(): void {
    const cast = byId<HTMLButtonElement>('cast');
    const reason = this.castBlocker();
    cast.disabled = reason !== null;
    cast.title = reason ?? CAST_TITLE;
    cast.classList.toggle('needs-target', reason !== null && this.selectedSpell() !== null);
  }

  /** Why Cast cannot run now, or null. */
  castBlocker(): string | null {
    const spell = this.selectedSpell();
    if (spell === null) {
      const ticking = (this.lastOutcome.module?.spells ?? []).map((s) => s.name).filter((s) => this.backend.tickSpells().has(s));
      if (ticking.length > 0) {
        const names = ticking.join(', ');
        return `${names} ${ticking.length === 1 ? "is a breed's tick spell" : "are breeds' tick spells"}: the world calls ${ticking.length === 1 ? 'it' : 'them'} every step with (self, dt), not by hand; press Play to run the world`;
      }
      return 'This source declares no spell: press Run to run its top-level code';
    }
    if (this.lastOutcome.module === null) return 'The spell has compile errors: fix them first (they are listed under the editor)';
    if (this.backend.tickSpells().has(spell)) return `${spell} is a breed's tick spell: the world calls it every step with (self, dt); press Play to run the world`;
    const module = this.lastGoodModule;
    if (module && readsParameter(module, spell, 1) && !this.hasTarget()) {
      return `Pick a target first: ${spell}() uses its ${parameterName(module, spell, 1) ?? 'target'}. Click the caster on the map, then the target.`;
    }
    return null;
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
    const known = this.backend.languageWorld();
    const markers = this.backend.loadBreeds(this.editor.breeds);
    // New breeds change which `entity.property` reads the compiler warns about.
    if (this.backend.languageWorld() !== known && this.compileCount > 0) this.recompileNow();
    this.editor.setBreedsMarkers(markers);
    this.problems.setBreeds(markers);
    this.breedsErrors = markers.filter((m) => m.severity === 'error').length;
    this.updateStatus();
    document.querySelector('.tabs button[data-tab="breeds"]')?.classList.toggle('invalid', markers.length > 0);
    this.autosave();
  }

  /** Autosave the text with what goes with it (breakpoints, the picked spell) under the address's hash now. */
  private saveSession(): void {
    saveState({ source: this.editor.source, breeds: this.editor.breeds }, location.hash, { breakpoints: this.editor.breakpointLines, spell: this.pickedSpell ?? this.selectedSpell() });
  }

  private autosave(): void {
    this.saveSession();
    if (location.hash.startsWith(SHARE_PREFIX) && !this.brokenLink) {
      window.clearTimeout(this.hashTimer);
      this.hashTimer = window.setTimeout(() => this.syncHash(), HASH_DEBOUNCE_MS);
    }
  }

  /**
   * Once the address holds a shared link, it follows the editor (as the
   * TypeScript Playground's does), so a reload or a copied address bar gives
   * the newest text, never the text as it was when Share was pressed.
   */
  private syncHash(): void {
    window.clearTimeout(this.hashTimer);
    this.hashTimer = undefined;
    if (!location.hash.startsWith(SHARE_PREFIX) || this.brokenLink) return;
    const tooLarge = this.editor.source.length + this.editor.breeds.length > MAX_LIVE_SOURCE;
    history.replaceState(null, '', tooLarge ? location.href.split('#')[0]! : shareUrl(location.href, this.shareState()));
    this.saveSession();
  }

  /**
   * Leaving (a reload, closing the tab): save under the hash the page has now, which is the one a
   * reload opens again — the address can no longer change — so the reload finds these edits.
   */
  private saveOnLeave(): void {
    if (this.compileTimer !== undefined) this.recompileNow();
    window.clearTimeout(this.hashTimer);
    this.saveSession();
  }

  /** Save now (Ctrl+S): autosave and the shared address, without waiting for the debounce. */
  saveNow(): void {
    if (this.compileTimer !== undefined) this.recompileNow();
    this.saveSession();
    this.syncHash();
  }

  /** A module to run, or null after reporting why there is none. */
  private moduleForRun(): Module | null {
    this.startup.flush();
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
    const blocker = this.castBlocker();
    if (blocker !== null) {
      // Ctrl/Cmd+Enter reaches here even while the button is off: say why nothing happens.
      this.console.info(blocker);
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
    const url = shareUrl(location.href, this.shareState());
    this.brokenLink = false;
    history.replaceState(null, '', url);
    this.saveSession();
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // Clipboard may be unavailable (insecure context, headless); the address bar holds the link anyway.
    }
    toast(copied ? 'Link copied to the clipboard.' : 'Link is in the address bar.');
    this.console.info(`Share link (the address bar follows your edits from now on): ${url}`);
    return url;
  }

  hostSpecs(): readonly HostFunctionSpec[] {
    return this.backend.hostSpecs();
  }
}

/** A short message in the bottom-right corner, clear of the toolbar and the world's buttons. */
export function toast(text: string): void {
  for (const old of document.querySelectorAll('.toast')) old.remove();
  const el = document.createElement('div');
  el.className = 'toast';
  el.textContent = text;
  document.body.append(el);
  window.setTimeout(() => el.remove(), 2000);
}
