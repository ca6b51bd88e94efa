/**
 * The zone bus of a server in one process: messages are delivered on a
 * later turn of the event loop (never inside the sender's step), in order.
 */

import type { ZoneBus, ZoneMessage } from './zone-bus.js';

export class LocalZoneBus implements ZoneBus {
  private readonly handlers = new Map<string, (message: ZoneMessage) => void>();

  async subscribe(zone: string, handler: (message: ZoneMessage) => void): Promise<void> {
    this.handlers.set(zone, handler);
  }

  async unsubscribe(zone: string): Promise<void> {
    this.handlers.delete(zone);
  }

  send(zone: string, message: ZoneMessage): void {
    setImmediate(() => this.handlers.get(zone)?.(message));
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
