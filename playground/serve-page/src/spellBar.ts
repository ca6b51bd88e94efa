/**
 * The spells the server lets a player cast (`welcome.spells`), as a row of
 * buttons: one is picked at a time (click it, or press its number 1–9); a
 * click on an entity then casts the picked spell on it. The pick stays, so
 * the same spell can be cast again and again.
 */

export class SpellBar {
  picked: string | null = null;
  private spells: readonly string[] = [];

  constructor(
    private readonly element: HTMLElement,
    private readonly onPick: (spell: string | null) => void,
  ) {
    this.render();
  }

  setSpells(spells: readonly string[]): void {
    if (spells.length === this.spells.length && spells.every((s, i) => s === this.spells[i])) return;
    this.spells = spells;
    if (this.picked !== null && !spells.includes(this.picked)) this.picked = null;
    this.picked ??= spells[0] ?? null;
    this.render();
    this.onPick(this.picked);
  }

  /** Pick a spell by name (null: none); picking the picked one again keeps it. */
  pick(spell: string | null): void {
    if (spell !== null && !this.spells.includes(spell)) return;
    this.picked = spell;
    this.render();
    this.onPick(spell);
  }

  /** A digit key picks the spell with that number; true when it did. */
  pickByKey(key: string): boolean {
    if (!/^[1-9]$/.test(key)) return false;
    const spell = this.spells[Number(key) - 1];
    if (spell === undefined) return false;
    this.pick(spell);
    return true;
  }

  private render(): void {
    this.element.replaceChildren();
    if (this.spells.length === 0) {
      const empty = document.createElement('span');
      empty.className = 'muted';
      empty.textContent = 'Join to get your spells.';
      this.element.append(empty);
      return;
    }
    this.spells.forEach((spell, i) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'spell';
      button.dataset.spell = spell;
      button.setAttribute('aria-pressed', String(spell === this.picked));
      button.title = `Pick ${spell} (key ${i + 1}), then click an entity to cast it on`;
      const key = document.createElement('kbd');
      key.textContent = i < 9 ? String(i + 1) : '';
      button.append(key, ` ${spell}`);
      button.addEventListener('click', () => this.pick(spell));
      this.element.append(button);
    });
  }
}
