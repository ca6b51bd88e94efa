/**
 * What the end-to-end tests read and drive on the page (window.servePage):
 * the page's state as plain data, where an entity is drawn, frames drawn.
 */
import type { ZoneCanvas } from './zoneCanvas.js';
import type { ZoneConnection } from './zoneConnection.js';
import type { ZoneView } from './zoneView.js';

export interface ServePageHook {
  state(): {
    connected: boolean;
    avatar: string | null;
    zone: string | null;
    tick: number;
    spells: readonly string[];
    entities: { key: string; breed: string; x: number; y: number; health: number; name?: string }[];
    /** Every error the page showed, oldest first. */
    errors: readonly string[];
  };
  /** Where an entity (by global id) is drawn, relative to the canvas; null when it is not in view. */
  screenPosition(key: string): { x: number; y: number } | null;
  framesDrawn(): number;
}

declare global {
  interface Window {
    servePage?: ServePageHook;
  }
}

export function installPageHook(view: ZoneView, canvas: ZoneCanvas, connection: ZoneConnection, errors: readonly string[]): void {
  window.servePage = {
    state: () => ({
      connected: connection.connected,
      avatar: view.avatar,
      zone: view.zone,
      tick: view.tick,
      spells: view.spells,
      entities: view.entities().map(({ key, breed, x, y, health, name }) => ({ key, breed, x, y, health, ...(name === undefined ? {} : { name }) })),
      errors,
    }),
    screenPosition: (key) => {
      const e = view.byKey(key);
      return e ? canvas.screenPosition(e.id) : null;
    },
    framesDrawn: () => canvas.framesDrawn,
  };
}
