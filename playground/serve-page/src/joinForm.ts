/**
 * The join form in the page's toolbar: name, breed (the ones `GET /zones`
 * lists), where to appear, Join and Leave. Its fields can be filled from the
 * page's address (?name=Ann&breed=Wizard&x=10&y=12); it turns them into the
 * protocol's join options and locks them while the page is in the world.
 */
import type { JoinOptions } from '../../../server/protocol.js';

function field<T extends HTMLElement>(form: HTMLFormElement, id: string): T {
  const element = form.querySelector<T>(`#${id}`);
  if (!element) throw new Error(`The join form has no #${id}.`);
  return element as T;
}

export class JoinForm {
  private readonly name: HTMLInputElement;
  private readonly breed: HTMLSelectElement;
  private readonly x: HTMLInputElement;
  private readonly y: HTMLInputElement;
  private readonly joinButton: HTMLButtonElement;
  private readonly leaveButton: HTMLButtonElement;

  constructor(form: HTMLFormElement, onJoin: () => void, onLeave: () => void) {
    this.name = field(form, 'name');
    this.breed = field(form, 'breed');
    this.x = field(form, 'spawn-x');
    this.y = field(form, 'spawn-y');
    this.joinButton = field(form, 'join');
    this.leaveButton = field(form, 'leave');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      onJoin();
    });
    this.leaveButton.addEventListener('click', onLeave);
  }

  /** Fill the fields from the address's parameters. */
  fill(params: URLSearchParams): void {
    this.name.value = params.get('name') ?? '';
    this.x.value = params.get('x') ?? '';
    this.y.value = params.get('y') ?? '';
    const breed = params.get('breed');
    if (breed !== null) this.breed.dataset.wanted = breed;
  }

  /** The breeds a player may be (the one the address names picked). */
  setBreeds(breeds: readonly string[]): void {
    this.breed.replaceChildren(...breeds.map((b) => new Option(b, b)));
    const wanted = this.breed.dataset.wanted;
    if (wanted !== undefined && breeds.includes(wanted)) this.breed.value = wanted;
  }

  options(): JoinOptions {
    // The compact view encoding: about a sixth of the plain one's bytes (docs/server.md, "Bytes on the wire").
    return { name: this.name.value.trim() || undefined, breed: this.breed.value || undefined, x: optionalNumber(this.x), y: optionalNumber(this.y), compact: true };
  }

  /** Lock the fields while joining or in the world; Leave only then. */
  setState(state: 'out' | 'joining' | 'in'): void {
    for (const input of [this.name, this.breed, this.x, this.y, this.joinButton]) input.disabled = state !== 'out';
    this.leaveButton.disabled = state !== 'in';
  }
}

/** A number field: its number, or undefined when left empty. */
function optionalNumber(input: HTMLInputElement): number | undefined {
  return input.value.trim() === '' ? undefined : Number(input.value);
}
