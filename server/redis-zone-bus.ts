/**
 * The zone bus across processes: Redis pub/sub, one channel per zone
 * (`<ns>:bus:<zone>`). A message to a zone nobody runs at that moment (its
 * process died and no survivor took it yet) is lost: the hand-over protocol
 * resolves that by its timeout and the ownership record.
 */

import { Redis } from 'ioredis';
import type { ZoneBus, ZoneMessage } from './zone-bus.js';

export class RedisZoneBus implements ZoneBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, (message: ZoneMessage) => void>();

  constructor(
    url: string,
    private readonly ns: string,
  ) {
    this.publisher = new Redis(url, { maxRetriesPerRequest: 3 });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: 3 });
    this.subscriber.on('message', (channel: string, text: string) => {
      const handler = this.handlers.get(channel);
      if (handler === undefined) return;
      let message: ZoneMessage;
      try {
        message = JSON.parse(text) as ZoneMessage;
      } catch {
        return;
      }
      handler(message);
    });
  }

  private channel(zone: string): string {
    return `${this.ns}:bus:${zone}`;
  }

  async subscribe(zone: string, handler: (message: ZoneMessage) => void): Promise<void> {
    this.handlers.set(this.channel(zone), handler);
    await this.subscriber.subscribe(this.channel(zone));
  }

  async unsubscribe(zone: string): Promise<void> {
    this.handlers.delete(this.channel(zone));
    await this.subscriber.unsubscribe(this.channel(zone));
  }

  send(zone: string, message: ZoneMessage): void {
    void this.publisher.publish(this.channel(zone), JSON.stringify(message)).catch(() => {});
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
