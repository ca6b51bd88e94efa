/**
 * The page's log: what happened (world events in view, hand-overs) and what
 * the server refused (its `error` messages, in red). The newest line is at
 * the bottom; old lines go once there are many. The latest error is also
 * shown over the world for a few seconds, so it is seen where the player
 * looks.
 */

export type LogKind = 'info' | 'event' | 'error';

const MAX_LINES = 300;
const ERROR_SHOWN_MS = 5000;

export class MessageLog {
  private errorTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly list: HTMLElement,
    private readonly banner: HTMLElement,
  ) {}

  add(kind: LogKind, text: string): void {
    const line = document.createElement('li');
    line.className = `log-${kind}`;
    line.textContent = text;
    const stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.append(line);
    while (this.list.childElementCount > MAX_LINES) this.list.firstElementChild!.remove();
    if (stick) this.list.scrollTop = this.list.scrollHeight;
    if (kind === 'error') this.showError(text);
  }

  private showError(text: string): void {
    this.banner.textContent = text;
    this.banner.hidden = false;
    if (this.errorTimer !== null) clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => {
      this.banner.hidden = true;
      this.errorTimer = null;
    }, ERROR_SHOWN_MS);
  }
}
