import type { Client } from '@colyseus/sdk';
import { describe, expect, it } from 'vitest';
import type { SeatReservation } from '../../../server/protocol.js';
import { ZoneConnection, type LocateAvatar, type ZoneConnectionEvents } from './zoneConnection.js';

/** A room as the page uses it: handlers by message type, what was sent, whether it was left. */
class FakeRoom {
  readonly sent: [string, unknown][] = [];
  left = false;
  private readonly handlers = new Map<string, (message: unknown) => void>();
  private leaveHandler: (code: number, reason?: string) => void = () => {};
  private dropHandler: (code: number, reason?: string) => void = () => {};
  private reconnectHandler: () => void = () => {};

  constructor(readonly roomId: string) {}

  onMessage(type: string, handler: (message: unknown) => void): void {
    this.handlers.set(type, handler);
  }
  onLeave(handler: (code: number, reason?: string) => void): void {
    this.leaveHandler = handler;
  }
  onDrop(handler: (code: number, reason?: string) => void): void {
    this.dropHandler = handler;
  }
  onReconnect(handler: () => void): void {
    this.reconnectHandler = handler;
  }
  send(type: string, message: unknown): void {
    this.sent.push([type, message]);
  }
  async leave(): Promise<number> {
    this.left = true;
    return 1000;
  }

  /** The server sends `type`. */
  deliver(type: string, message: unknown): void {
    this.handlers.get(type)?.(message);
  }
  close(code: number, reason?: string): void {
    this.leaveHandler(code, reason);
  }
  drop(code: number): void {
    this.dropHandler(code);
  }
  reconnect(): void {
    this.reconnectHandler();
  }
}

/** A Colyseus client whose joins and seat reservations the test answers. */
class FakeClient {
  readonly rooms: FakeRoom[] = [];
  refuseJoin: string | null = null;
  /** Resolves or rejects the pending consumeSeatReservation. */
  seat: { resolve(): void; reject(error: Error): void } | null = null;

  readonly joins: [string, unknown][] = [];

  async joinById(roomId: string, options?: unknown): Promise<FakeRoom> {
    this.joins.push([roomId, options]);
    if (this.refuseJoin !== null) throw new Error(this.refuseJoin);
    return this.add(roomId);
  }

  consumeSeatReservation(reservation: SeatReservation): Promise<FakeRoom> {
    return new Promise((resolve, reject) => {
      this.seat = { resolve: () => resolve(this.add(reservation.roomId)), reject };
    });
  }

  private add(roomId: string): FakeRoom {
    const room = new FakeRoom(roomId);
    this.rooms.push(room);
    return room;
  }
}

function connect(locate: LocateAvatar = async () => 'gone') {
  const client = new FakeClient();
  const heard: string[] = [];
  const events: ZoneConnectionEvents = {
    welcome: (m) => heard.push(`welcome ${m.zone}`),
    view: (m) => heard.push(`view ${m.t}`),
    events: (m) => heard.push(`events ${m.length}`),
    error: (m) => heard.push(`error ${m.code}`),
    handover: (zone) => heard.push(`handover ${zone}`),
    dropped: (reason) => heard.push(`dropped ${reason}`),
    reconnected: (zone) => heard.push(`reconnected ${zone ?? 'here'}`),
    disconnected: (reason) => heard.push(`disconnected ${reason}`),
  };
  const connection = new ZoneConnection(client as unknown as Client, events, locate, { retryMs: 1, limitMs: 50 });
  return { client, connection, heard };
}

const welcome = (zone: string) => ({ avatar: 'p1', zone, interest: 6, world: { width: 40, height: 20 }, zones: [], spells: ['zap'] });
const reservation: SeatReservation = { name: 'zone', sessionId: 's2', roomId: 'z1-0' };
/** Let the awaited promises of a hand-over run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ZoneConnection', () => {
  it('passes the room’s messages on and sends moves and casts to it', async () => {
    const { client, connection, heard } = connect();
    await connection.join('z0-0', { breed: 'Wizard' });
    const room = client.rooms[0]!;
    room.deliver('welcome', welcome('z0-0'));
    room.deliver('view', { t: 4 });
    room.deliver('error', { code: 'flood', message: 'slow down' });
    connection.move({ vx: 1, vy: 0 });
    expect(connection.cast({ spell: 'zap', target: 't' })).toBe(true);
    expect(heard).toEqual(['welcome z0-0', 'view 4', 'error flood']);
    expect(room.sent).toEqual([
      ['move', { vx: 1, vy: 0 }],
      ['cast', { spell: 'zap', target: 't' }],
    ]);
  });

  it('says why a join was refused, and can join after', async () => {
    const { client, connection } = connect();
    client.refuseJoin = 'Unknown breed "Dragon"';
    await expect(connection.join('z0-0', { breed: 'Dragon' })).rejects.toThrow('Could not join zone z0-0: Unknown breed "Dragon"');
    expect(connection.connected).toBe(false);
    client.refuseJoin = null;
    await connection.join('z0-0', {});
    expect(connection.connected).toBe(true);
    await expect(connection.join('z0-0', {})).rejects.toThrow('Already in the world');
  });

  it('hands over: ignores the old room, keeps the velocity and the casts made meanwhile for the new room, then leaves the old', async () => {
    const { client, connection, heard } = connect();
    await connection.join('z0-0', {});
    const old = client.rooms[0]!;
    connection.move({ vx: 2, vy: 0 });
    old.deliver('handover', { zone: 'z1-0', reservation });
    old.deliver('view', { t: 99 }); // stale: the avatar has left this zone
    expect(connection.connected).toBe(true);
    expect(connection.cast({ spell: 'zap' })).toBe(true);
    client.seat!.resolve();
    await settle();
    const next = client.rooms[1]!;
    expect(next.roomId).toBe('z1-0');
    expect(next.sent).toEqual([
      ['move', { vx: 2, vy: 0 }],
      ['cast', { spell: 'zap' }],
    ]);
    expect(old.left).toBe(true);
    next.deliver('welcome', welcome('z1-0'));
    old.deliver('view', { t: 100 });
    old.close(4000, 'left');
    expect(heard).toEqual(['handover z1-0', 'welcome z1-0']);
  });

  it('a failed hand-over disconnects with the reason; casts are then refused', async () => {
    const { client, connection, heard } = connect();
    await connection.join('z0-0', {});
    client.rooms[0]!.deliver('handover', { zone: 'z1-0', reservation });
    client.seat!.reject(new Error('seat expired'));
    await settle();
    expect(heard).toEqual(['handover z1-0', 'disconnected Could not move to zone z1-0: seat expired']);
    expect(client.rooms[0]!.left).toBe(true);
    expect(connection.connected).toBe(false);
    expect(connection.cast({ spell: 'zap' })).toBe(false);
  });

  it('says a dropped connection once over the retries, and a closed room as disconnected', async () => {
    const { client, connection, heard } = connect();
    await connection.join('z0-0', {});
    const room = client.rooms[0]!;
    room.drop(1006);
    room.drop(1006);
    room.reconnect();
    room.close(4003, 'No more retries. Reconnection failed.');
    expect(heard).toEqual(['dropped code 1006', 'reconnected here', "disconnected The zone's room closed the connection (code 4003: No more retries. Reconnection failed)."]);
    expect(connection.connected).toBe(false);
  });

  it('comes back to its avatar by itself when its room dies: asks where the avatar is, joins that zone with the token, carries the velocity and the casts made meanwhile', async () => {
    const asked: string[] = [];
    const { client, connection, heard } = connect(async (avatar) => {
      asked.push(avatar);
      return asked.length === 1 ? null : 'z1-0'; // first: its zone is being taken over
    });
    await connection.join('z0-0', { compact: true });
    const first = client.rooms[0]!;
    first.deliver('welcome', { ...welcome('z0-0'), token: 'p1.secret' });
    connection.move({ vx: 2, vy: 0 });
    client.refuseJoin = 'the room is not there yet';
    first.close(1006);
    expect(connection.connected).toBe(true);
    expect(connection.cast({ spell: 'zap' })).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    client.refuseJoin = null;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const back = client.rooms[1]!;
    expect(back.roomId).toBe('z1-0');
    expect(asked[0]).toBe('p1');
    expect(client.joins.at(-1)).toEqual(['z1-0', { rejoin: 'p1.secret', compact: true }]);
    expect(back.sent).toEqual([
      ['move', { vx: 2, vy: 0 }],
      ['cast', { spell: 'zap' }],
    ]);
    back.deliver('welcome', welcome('z1-0'));
    expect(heard).toEqual(['welcome z0-0', 'dropped code 1006', 'reconnected z1-0', 'welcome z1-0']);
  });

  it('stops coming back when the avatar left the world, when the time is up, or when the player leaves', async () => {
    const gone = connect(async () => 'gone');
    await gone.connection.join('z0-0', {});
    gone.client.rooms[0]!.deliver('welcome', { ...welcome('z0-0'), token: 'p1.secret' });
    gone.client.rooms[0]!.close(1006);
    await settle();
    expect(gone.heard.at(-1)).toBe('disconnected Your avatar left the world while you were away: join again.');
    expect(gone.connection.connected).toBe(false);

    const down = connect(async () => {
      throw new Error('GET /avatar answered 503');
    });
    await down.connection.join('z0-0', {});
    down.client.rooms[0]!.deliver('welcome', { ...welcome('z0-0'), token: 'p1.secret' });
    down.client.rooms[0]!.close(1006);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(down.heard.at(-1)).toBe('disconnected Could not get back to your avatar within 0.05 s (GET /avatar answered 503).');

    const leaving = connect(async () => 'z0-0');
    await leaving.connection.join('z0-0', {});
    leaving.client.rooms[0]!.deliver('welcome', { ...welcome('z0-0'), token: 'p1.secret' });
    leaving.client.refuseJoin = 'not yet';
    leaving.client.rooms[0]!.close(1006);
    await leaving.connection.leave();
    leaving.client.refuseJoin = null;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(leaving.connection.connected).toBe(false);
    expect(leaving.client.rooms).toHaveLength(1);
  });
});
