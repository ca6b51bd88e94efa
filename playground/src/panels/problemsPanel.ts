/**
 * The problems strip under the editor: every compile diagnostic and breeds
 * error as a line of text (the squiggles only show theirs on hover), click
 * one to go to it. Hidden while there is nothing to say.
 */
import type { EditorTab } from '../editor/spellEditor.js';
import type { MarkerData } from '../language/markers.js';

/** Rows drawn; a source with thousands of errors still shows the first ones. */
const MAX_ROWS = 100;

export class ProblemsPanel {
  private spell: readonly MarkerData[] = [];
  private breeds: readonly MarkerData[] = [];

  constructor(
    private readonly element: HTMLElement,
    private readonly onPick: (tab: EditorTab, line: number, column: number) => void,
  ) {
    element.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.problem[data-line]');
      if (!row) return;
      this.onPick(row.dataset.tab === 'breeds' ? 'breeds' : 'spell', Number(row.dataset.line), Number(row.dataset.column));
    });
  }

  setSpell(markers: readonly MarkerData[]): void {
    if (sameMarkers(this.spell, markers)) return;
    this.spell = markers;
    this.render();
  }

  setBreeds(markers: readonly MarkerData[]): void {
    if (sameMarkers(this.breeds, markers)) return;
    this.breeds = markers;
    this.render();
  }

  private render(): void {
    const rows = [...this.breeds.map((m) => this.row('breeds', m)), ...this.spell.map((m) => this.row('spell', m))];
    this.element.hidden = rows.length === 0;
    this.element.replaceChildren(...rows.slice(0, MAX_ROWS));
  }

  private row(tab: EditorTab, marker: MarkerData): HTMLElement {
    const div = document.createElement('div');
    div.className = `problem ${marker.severity}`;
    div.dataset.tab = tab;
    div.dataset.line = String(marker.startLineNumber);
    div.dataset.column = String(marker.startColumn);
    div.title = 'Go to it';
    const where = document.createElement('span');
    where.className = 'where';
    where.textContent = `${tab === 'breeds' ? 'breeds.json ' : ''}${marker.startLineNumber}:${marker.startColumn}`;
    div.append(marker.severity === 'error' ? '✖ ' : '⚠ ', where, marker.message);
    return div;
  }
}

function sameMarkers(a: readonly MarkerData[], b: readonly MarkerData[]): boolean {
  return (
    a.length === b.length &&
    a.every((m, i) => {
      const n = b[i]!;
      return m.message === n.message && m.startLineNumber === n.startLineNumber && m.startColumn === n.startColumn && m.severity === n.severity;
    })
  );
}
