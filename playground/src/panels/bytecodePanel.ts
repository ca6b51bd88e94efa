/**
 * The live disassembly beside the source. Each instruction row carries the
 * colour of the source line that produced it; hovering or clicking a row
 * highlights that line in the editor, and the editor highlights rows here
 * (Compiler Explorer's linking).
 *
 * A 1,000-line spell produces thousands of rows, so the list is virtual: only
 * the rows in view exist in the DOM, and a recompile costs the same whatever
 * the spell's length.
 */
import type { Module } from '../../../vm/module.js';
import { opcodeHelp } from '../assist/opcodeDocs.js';
import { LineInstructionMap, buildListing, colourIndexForLine, instructionText, rowText, type ListingRow } from '../language/bytecodeMap.js';
import { escapeHtml } from '../html.js';

export const PALETTE_SIZE = 8;
/** Rows drawn above and below the viewport, so fast scrolling shows no gaps. */
const OVERSCAN = 20;

export interface BytecodePanelEvents {
  onHoverLine(line: number | null): void;
  onClickLine(line: number): void;
}

export class BytecodePanel {
  private map = new LineInstructionMap([]);
  private module: Module | null = null;
  private linked = new Set<number>();
  private current: number | null = null;
  private readonly inner: HTMLDivElement;
  private frameRequested = false;
  /** Row height in CSS pixels; follows the code font size. */
  private rowHeight = 17;
  /** The listing is of an older source (the current one has errors): no linking to the editor's lines. */
  private stale = false;
  private readonly tip: HTMLDivElement;

  constructor(
    private readonly element: HTMLElement,
    private readonly info: HTMLElement,
    private readonly events: BytecodePanelEvents,
  ) {
    this.inner = document.createElement('div');
    this.inner.className = 'bytecode-inner';
    element.replaceChildren(this.inner);
    element.addEventListener('scroll', () => this.requestRender());
    new ResizeObserver(() => this.requestRender()).observe(element);
    this.tip = document.createElement('div');
    this.tip.className = 'opcode-tip';
    this.tip.hidden = true;
    element.parentElement?.append(this.tip);
    element.addEventListener('mouseover', (e) => {
      this.showTip(e.target);
      if (!this.stale) this.events.onHoverLine(this.lineAt(e.target));
    });
    element.addEventListener('mouseleave', () => {
      this.tip.hidden = true;
      this.events.onHoverLine(null);
    });
    element.addEventListener('scroll', () => (this.tip.hidden = true));
    element.addEventListener('click', (e) => {
      const line = this.lineAt(e.target);
      if (line !== null && !this.stale) this.events.onClickLine(line);
    });
  }

  /** The module the listing shows (null before the first compile). */
  get shownModule(): Module | null {
    return this.module;
  }

  get isStale(): boolean {
    return this.stale;
  }

  setRowHeight(pixels: number): void {
    if (pixels === this.rowHeight) return;
    this.rowHeight = pixels;
    this.element.style.setProperty('--row-height', `${pixels}px`);
    this.inner.style.height = `${this.map.rows.length * pixels + 8}px`;
    this.render();
  }

  /** Hovering an instruction says what it does, from the opcode table's docs. */
  private showTip(target: EventTarget | null): void {
    const row = (target as HTMLElement | null)?.closest?.<HTMLElement>('.row[data-row]');
    const listed = row ? this.map.rows[Number(row.dataset.row)] : undefined;
    const help = listed?.kind === 'instruction' ? opcodeHelp(listed.opcode) : null;
    if (!row || !help) {
      this.tip.hidden = true;
      return;
    }
    this.tip.replaceChildren();
    const name = document.createElement('b');
    name.textContent = help.name;
    const operands = help.operands === '' ? '' : ` (${help.operands})`;
    this.tip.append(name, `${operands} — ${help.doc}`);
    const host = this.tip.parentElement!.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    this.tip.style.top = `${box.bottom - host.top + 2}px`;
    this.tip.style.left = `${Math.max(4, box.left - host.left + 40)}px`;
    this.tip.hidden = false;
  }

  get lineMap(): LineInstructionMap {
    return this.map;
  }

  /** Show a fresh module; `null` keeps the last listing, dimmed, while the source has errors. */
  show(module: Module | null): void {
    if (module === null) {
      this.stale = this.map.rows.length > 0;
      this.element.classList.toggle('stale', this.stale);
      // The old listing's rows belong to other lines: drop the highlight instead of pointing at wrong rows.
      this.linked.clear();
      this.requestRender();
      this.info.textContent = this.map.rows.length > 0 ? 'stale: the source has errors' : 'the source has errors';
      if (this.map.rows.length === 0) this.inner.innerHTML = '<div class="empty">Fix the errors to see the bytecode.</div>';
      return;
    }
    this.stale = false;
    this.element.classList.remove('stale');
    const rows = buildListing(module);
    this.module = module;
    this.map = new LineInstructionMap(rows);
    this.linked.clear();
    this.current = null;
    this.inner.style.height = `${rows.length * this.rowHeight + 8}px`;
    // The rows are placed absolutely (only those in view are drawn), so they do not widen the scroll area:
    // size it for the longest row (its text, plus the line column and the padding), so long operands scroll into view.
    const longest = rows.reduce((n, r) => Math.max(n, rowText(module, r).length), 0);
    this.inner.style.width = `calc(${longest + 6}ch + 24px)`;
    this.render();
    const count = rows.length - module.functions.length;
    this.info.textContent = `${count} instructions · ${module.functions.length} functions`;
  }

  /** Rows of `line` get the linked highlight (editor hover/cursor). */
  highlightLine(line: number | null, reveal = false): void {
    this.linked = new Set(line === null || this.stale ? [] : this.map.rowsForLine(line));
    if (reveal && this.linked.size > 0) this.revealRow(Math.min(...this.linked));
    this.requestRender();
  }

  /** The debugger's current instruction. */
  setCurrent(functionIndex: number | null, offset: number | null): void {
    this.current = functionIndex === null || offset === null ? null : this.map.rowFor(functionIndex, offset);
    if (this.current !== null) this.revealRow(this.current);
    this.requestRender();
  }

  /** The listing as text (debug hook, tests). */
  text(): string {
    const module = this.module;
    return module ? this.map.rows.map((r) => rowText(module, r)).join('\n') : '';
  }

  private revealRow(index: number): void {
    const top = index * this.rowHeight;
    const view = this.element;
    if (top < view.scrollTop || top + this.rowHeight > view.scrollTop + view.clientHeight) {
      view.scrollTop = Math.max(0, top - view.clientHeight / 3);
    }
  }

  private lineAt(target: EventTarget | null): number | null {
    const row = (target as HTMLElement | null)?.closest?.<HTMLElement>('.row[data-row]');
    return row ? this.map.lineForRow(Number(row.dataset.row)) : null;
  }

  private requestRender(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.render();
    });
  }

  /** Draw the rows in view (one innerHTML write). */
  private render(): void {
    const rows = this.map.rows;
    if (rows.length === 0) return;
    const first = Math.max(0, Math.floor(this.element.scrollTop / this.rowHeight) - OVERSCAN);
    const visible = Math.ceil((this.element.clientHeight || 600) / this.rowHeight);
    const last = Math.min(rows.length, first + visible + 2 * OVERSCAN);
    const html: string[] = [];
    for (let i = first; i < last; i++) html.push(this.rowHtml(rows, i));
    this.inner.innerHTML = html.join('');
  }

  private rowHtml(rows: readonly ListingRow[], i: number): string {
    const row = rows[i]!;
    const top = `style="top:${i * this.rowHeight}px"`;
    if (row.kind === 'header') return `<div class="row header" ${top}>${escapeHtml(row.text)}</div>`;
    const previous = rows[i - 1];
    const sameLine = previous !== undefined && previous.kind === 'instruction' && previous.line === row.line;
    const classes = ['row', `lc${colourIndexForLine(row.line, PALETTE_SIZE)}`];
    if (this.linked.has(i)) classes.push('linked');
    if (this.current === i) classes.push('current');
    return (
      `<div class="${classes.join(' ')}" data-row="${i}" ${top}>` +
      `<span class="off">${String(row.offset).padStart(4, '0')}</span><span class="line">${sameLine ? '|' : row.line}</span>${escapeHtml(this.module ? instructionText(this.module, row) : row.opcode)}</div>`
    );
  }
}
