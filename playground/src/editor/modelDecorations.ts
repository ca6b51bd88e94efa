/**
 * Decorations kept on a text model rather than on the editor. The editor
 * shows one model at a time (the spell or breeds.json): an editor's
 * decorations collection is emptied when its model is swapped, so the
 * spell's breakpoints, line colours and current line live on the spell's
 * model, where switching tabs leaves them as they were.
 */
import { monaco } from './monaco.js';

export class ModelDecorations {
  private ids: string[] = [];

  constructor(private readonly model: monaco.editor.ITextModel) {}

  set(decorations: monaco.editor.IModelDeltaDecoration[]): void {
    this.ids = this.model.deltaDecorations(this.ids, decorations);
  }

  clear(): void {
    if (this.ids.length > 0) this.set([]);
  }

  /** Where the decorations are now (edits move them with their lines). */
  getRanges(): monaco.Range[] {
    return this.ids.map((id) => this.model.getDecorationRange(id)).filter((r): r is monaco.Range => r !== null);
  }
}
