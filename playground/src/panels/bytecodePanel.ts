/**
 * The live disassembly beside the source. Each instruction row carries the
 * colour of the source line that produced it; hovering or clicking a row
 * highlights that line in the editor, and the editor highlights rows here
 * (Compiler Explorer's linking).
 */
import type { Module } from '../../../vm/module.js';
import { LineInstructionMap, buildListing, colourIndexForLine, rowText, type ListingRow } from '../language/bytecodeMap.js';

export const PALETTE_SIZE = 8;

export interface BytecodePanelEvents {
  onHoverLine(line: number | null): void;
  onClickLine(line: number): void;
}

export class BytecodePanel {
  private map = new LineInstructionMap([]);
  private rowElements: HTMLElement[] = [];
  private linked: number[] = [];
  private current: number | null = null;

  constructor(
    private readonly element: HTMLElement,
    private readonly info: HTMLElement,
    private readonly events: BytecodePanelEvents,
  ) {
    element.addEventListener('mouseover', (e) => this.events.onHoverLine(this.lineAt(e.target)));
    element.addEventListener('mouseleave', () => this.events.onHoverLine(null));
    element.addEventListener('click', (e) => {
      const line = this.lineAt(e.target);
      if (line !== null) this.events.onClickLine(line);
    });
  }

  get lineMap(): LineInstructionMap {
    return this.map;
  }

  /** Show a fresh module; `null` keeps the last listing, dimmed, while the source has errors. */
  show(module: Module | null): void {
    if (module === null) {
      this.element.classList.toggle('stale', this.rowElements.length > 0);
      if (this.rowElements.length === 0) this.element.innerHTML = '<div class="empty">Fix the errors to see the bytecode.</div>';
      this.info.textContent = 'stale: source has errors';
      return;
    }
    this.element.classList.remove('stale');
    const rows = buildListing(module);
    this.map = new LineInstructionMap(rows);
    this.render(rows);
    const count = rows.filter((r) => r.kind === 'instruction').length;
    this.info.textContent = `${count} instructions · ${module.functions.length} functions`;
  }

  /** Rows of `line` get the linked highlight (editor hover/cursor). */
  highlightLine(line: number | null, reveal = false): void {
    for (const i of this.linked) this.rowElements[i]?.classList.remove('linked');
    this.linked = line === null ? [] : [...this.map.rowsForLine(line)];
    for (const i of this.linked) this.rowElements[i]?.classList.add('linked');
    if (reveal && this.linked.length > 0) this.rowElements[this.linked[0]!]?.scrollIntoView({ block: 'nearest' });
  }

  /** The debugger's current instruction. */
  setCurrent(functionIndex: number | null, offset: number | null): void {
    if (this.current !== null) this.rowElements[this.current]?.classList.remove('current');
    this.current = functionIndex === null || offset === null ? null : this.map.rowFor(functionIndex, offset);
    if (this.current !== null) {
      const el = this.rowElements[this.current];
      el?.classList.add('current');
      el?.scrollIntoView({ block: 'nearest' });
    }
  }

  /** The listing as text (debug hook, tests). */
  text(): string {
    return this.map.rows.map(rowText).join('\n');
  }

  private lineAt(target: EventTarget | null): number | null {
    const row = (target as HTMLElement | null)?.closest?.<HTMLElement>('.row[data-row]');
    return row ? this.map.lineForRow(Number(row.dataset.row)) : null;
  }

  private render(rows: readonly ListingRow[]): void {
    // One innerHTML write: a 1,000-line spell yields thousands of rows.
    const html: string[] = [];
    let previousLine = -1;
    rows.forEach((row, i) => {
      if (row.kind === 'header') {
        html.push(`<div class="row header">${escapeHtml(row.text)}</div>`);
        previousLine = -1;
        return;
      }
      const colour = `lc${colourIndexForLine(row.line, PALETTE_SIZE)}`;
      const lineLabel = row.line === previousLine ? '|' : String(row.line);
      previousLine = row.line;
      html.push(
        `<div class="row ${colour}" data-row="${i}" title="line ${row.line}"><span class="off">${String(row.offset).padStart(4, '0')}</span><span class="line">${lineLabel}</span>${escapeHtml(row.text)}</div>`,
      );
    });
    this.element.innerHTML = html.join('');
    this.rowElements = Array.from(this.element.querySelectorAll<HTMLElement>('.row'));
    this.linked = [];
    this.current = null;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
