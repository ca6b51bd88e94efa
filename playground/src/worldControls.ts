/**
 * Wires the world panel to the page: the play / pause / step / reset
 * buttons, the grid and AOI toggles, the caster → target selection shown in
 * the toolbar, and world events to canvas effects.
 */
import type { EntityId } from '../../runtime/events/events.js';
import type { PlaygroundApp } from './app.js';
import { WorldPanel } from './panels/worldPanel.js';
import type { PlaygroundSession } from './session.js';

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

export function setUpWorld(app: PlaygroundApp, session: PlaygroundSession): WorldPanel {
  const label = (id: EntityId | null): string => {
    if (id === null) return '—';
    const e = session.world.entity(id);
    return e ? `${e.breed}#${e.id}` : `#${id}`;
  };
  const panel = new WorldPanel(byId<HTMLCanvasElement>('world'), byId('world-readout'), session.world, {
    onSelectionChange: (caster, target) => {
      byId('selection').innerHTML = '';
      const text = document.createElement('span');
      text.append('caster ', bold(label(caster)), ' → target ', bold(label(target)));
      byId('selection').append(text);
      app.updateCastButton();
    },
  });
  app.hasTarget = () => panel.target !== null && session.world.entity(panel.target) !== null;
  panel.onTickError = (message) => app.console.error(`World error: ${message}`);
  session.selection = () => ({ caster: panel.caster, target: panel.target });
  session.onWorldEvent = (event) => panel.observe(event);
  session.onWorldChanged = () => panel.requestDraw();

  /** Play and step use the newest spell that compiled. */
  const sync = (reset = false): boolean => {
    app.startup.flush();
    const module = app.lastGoodModule;
    if (!module) {
      app.console.error('The spell has compile errors and has never compiled: fix it first.');
      return false;
    }
    const ok = session.syncWorld(app.lastGoodSource, module, reset);
    panel.pruneSelection();
    panel.updateReadout();
    return ok;
  };

  /**
   * The first world is built once the page is ready (a start-up task, after the first compile), not
   * before: the editor takes input sooner. Anything that needs it earlier (a cast, Play, the test
   * hook) finishes the start-up on the spot; either way the view is fitted to it once.
   */
  app.startup.later(() => {
    sync();
    panel.fitToEntities();
    panel.setSelection(defaultCaster(session), null);
  });
  session.ensureWorld = () => app.startup.flush();

  byId('world-play').addEventListener('click', () => {
    if (sync()) panel.play();
  });
  byId('world-pause').addEventListener('click', () => panel.pause());
  byId('world-step').addEventListener('click', () => {
    if (sync()) panel.stepTick();
  });
  byId('world-reset').addEventListener('click', () => {
    panel.pause();
    if (sync(true)) app.console.info('The world was reset.');
    panel.fitToEntities();
    panel.setSelection(defaultCaster(session), null);
  });
  app.onExampleLoaded = (name) => {
    if (!session.world.useScenarioFor(name)) return;
    panel.pause();
    const setup = session.world.setup;
    if (sync(true)) {
      const about = setup.description === '' ? '' : `: ${setup.description}`;
      app.console.info(`The world now holds the ${setup.name} scenario (spells/scenarios/${setup.name}.json)${about}`);
    }
    panel.fitToEntities();
    panel.setSelection(defaultCaster(session), null);
  };
  byId<HTMLInputElement>('show-aoi').addEventListener('change', (e) => (panel.showAoi = (e.target as HTMLInputElement).checked));
  byId<HTMLInputElement>('show-grid').addEventListener('change', (e) => (panel.showGrid = (e.target as HTMLInputElement).checked));

  return panel;
}

/** The first entity whose breed is tagged "hero" (data, not a breed name), else the first entity. */
function defaultCaster(session: PlaygroundSession): EntityId | null {
  return session.defaultCaster();
}

function bold(text: string): HTMLElement {
  const b = document.createElement('b');
  b.textContent = text;
  return b;
}
