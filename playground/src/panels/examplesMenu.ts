/**
 * The toolbar's Examples menu: every example, the one open (or "fireball
 * (edited)" once changed), and "Your draft" when the user's own spell was set
 * aside for an example or a link, so it is one pick away.
 */
import { exampleWithSource, type Example } from '../examples.js';

/** The option value of the draft entry (no example is named with a NUL). */
export const DRAFT_OPTION = '\u0000draft';

export type MenuChoice = { readonly kind: 'example'; readonly example: Example } | { readonly kind: 'draft' };

export class ExamplesMenu {
  private shape = '';

  constructor(
    private readonly select: HTMLSelectElement,
    private readonly examples: readonly Example[],
    onPick: (choice: MenuChoice) => void,
  ) {
    select.addEventListener('change', () => {
      const value = select.value;
      if (value === DRAFT_OPTION) {
        onPick({ kind: 'draft' });
        return;
      }
      const example = examples.find((x) => x.name === value);
      if (example) onPick({ kind: 'example', example });
    });
  }

  /** The example whose text the editor holds unchanged, if any. */
  exampleWithSource(source: string): Example | undefined {
    return exampleWithSource(this.examples, source);
  }

  /** Show which example is open; `edited` names the example the current text started from. */
  update(source: string, edited: string | null, hasDraft: boolean): void {
    const open = this.exampleWithSource(source);
    const placeholder = open ? 'Examples…' : edited !== null ? `${edited} (edited)` : 'Examples…';
    const shape = `${placeholder}\n${hasDraft}`;
    if (shape !== this.shape) {
      this.shape = shape;
      const options = [new Option(placeholder, '')];
      if (hasDraft) options.push(new Option('↩ Your draft', DRAFT_OPTION));
      options.push(...this.examples.map((e) => new Option(e.name, e.name)));
      this.select.replaceChildren(...options);
    }
    this.select.value = open ? open.name : '';
    this.select.title = open ? `Example "${open.name}" (spells/${open.name}.spell) is open` : 'Load an example from spells/';
  }
}
