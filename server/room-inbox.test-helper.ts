/**
 * What the server's SDK tests share: an inbox of everything a Colyseus room
 * received, and a wait for the first message that fits.
 */
import type { Room } from '@colyseus/sdk';

/** Collects what a room receives, and waits for a message that fits. */
export class Inbox {
  readonly all: { type: string; message: unknown }[] = [];
  private readonly waiting = new Set<() => void>();
  constructor(room: Room) {
    room.onMessage('*', (type, message) => {
      this.all.push({ type: String(type), message });
      for (const w of [...this.waiting]) w();
    });
  }
  find<T>(type: string, fits: (m: T) => boolean = () => true): T | undefined {
    return this.all.find((x) => x.type === type && fits(x.message as T))?.message as T | undefined;
  }
  wait<T>(type: string, fits: (m: T) => boolean = () => true, ms = 8000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.find<T>(type, fits);
        if (found === undefined) return;
        this.waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(check);
        reject(new Error(`no ${type} message that fits (got ${this.all.map((x) => x.type).join(', ')})`));
      }, ms);
      this.waiting.add(check);
      check();
    });
  }
}

