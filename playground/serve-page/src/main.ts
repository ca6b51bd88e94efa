/**
 * The browser page `cantrip serve` serves at `/`: join the world, watch the
 * entities around the avatar, move with WASD or the arrows, pick a spell and
 * click an entity to cast it. The pieces: zoneView (what the server said),
 * zoneConnection (the Colyseus rooms and hand-over), zoneCanvas (drawing),
 * keyboardMove, spellBar, messageLog. The form's fields can be filled from
 * the address: ?name=Ann&breed=Wizard&x=10&y=12&zone=z0-0, and &join=1 joins
 * at once.
 */
import { Client } from '@colyseus/sdk';
import type { JoinOptions, ZonesResponse } from '../../../server/protocol.js';
import { ZoneView } from './zoneView.js';
import { ZoneConnection } from './zoneConnection.js';
import { ZoneCanvas } from './zoneCanvas.js';
import { KeyboardMove } from './keyboardMove.js';
import { SpellBar } from './spellBar.js';
import { MessageLog } from './messageLog.js';
import { describeServerEvent, localEvent } from './serverEvents.js';

/** What the end-to-end tests read and drive (window.servePage). */
export interface ServePageHook {
  state(): {
    connected: boolean;
    avatar: string | null;
    zone: string | null;
    tick: number;
    spells: readonly string[];
    entities: { key: string; breed: string; x: number; y: number; health: number }[];
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

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element as T;
}

const form = byId<HTMLFormElement>('join-form');
const nameInput = byId<HTMLInputElement>('name');
const breedSelect = byId<HTMLSelectElement>('breed');
const xInput = byId<HTMLInputElement>('spawn-x');
const yInput = byId<HTMLInputElement>('spawn-y');
const joinButton = byId<HTMLButtonElement>('join');
const leaveButton = byId<HTMLButtonElement>('leave');
const status = byId('status');

const view = new ZoneView();
const canvas = new ZoneCanvas(byId<HTMLCanvasElement>('world'), view);
const log = new MessageLog(byId('log'), byId('error-banner'));
const errors: string[] = [];
const spellBar = new SpellBar(byId('spells'), (spell) => {
  byId('hint').textContent = spell === null ? '' : `Click an entity to cast ${spell} on it (your avatar: on yourself).`;
});

const connection = new ZoneConnection(new Client(location.origin), {
  welcome(message) {
    view.welcome(message);
    spellBar.setSpells(message.spells);
    log.add('info', `In zone ${message.zone} as ${message.avatar}.`);
    update();
  },
  view(message) {
    view.apply(message);
    if (canvas.target !== null && view.entity(canvas.target) === null) canvas.target = null;
    update();
  },
  events(events) {
    for (const event of events) {
      canvas.observe(localEvent(event, view));
      log.add('event', describeServerEvent(event, view));
    }
  },
  error(message) {
    showError(`${message.message} (${message.code})`);
  },
  handover(zone) {
    view.handover(zone);
    log.add('info', `Crossing into zone ${zone}…`);
    update();
  },
  disconnected(reason) {
    showError(reason);
    view.clear();
    joined(false);
  },
});

function showError(text: string): void {
  errors.push(text);
  log.add('error', text);
}

function update(): void {
  const avatar = view.avatarEntity();
  const parts = connection.connected
    ? [`zone ${view.zone ?? '…'}`, `you: ${view.avatar ?? '…'}`, avatar ? `(${avatar.x.toFixed(1)}, ${avatar.y.toFixed(1)}) ♥${Math.round(avatar.health)}` : '', `${view.entities().length} in view`, `tick ${view.tick}`]
    : ['not in the world'];
  const text = parts.filter((p) => p !== '').join(' · ');
  if (status.textContent !== text) status.textContent = text;
  canvas.requestDraw();
}

function joined(inWorld: boolean): void {
  for (const input of [nameInput, breedSelect, xInput, yInput, joinButton]) input.disabled = inWorld;
  leaveButton.disabled = !inWorld;
  if (!inWorld) spellBar.setSpells([]);
  update();
}

/** A number field: its number, or undefined when left empty. */
function optionalNumber(input: HTMLInputElement): number | undefined {
  return input.value.trim() === '' ? undefined : Number(input.value);
}

async function join(): Promise<void> {
  const options: JoinOptions = { name: nameInput.value.trim() || undefined, breed: breedSelect.value || undefined, x: optionalNumber(xInput), y: optionalNumber(yInput) };
  const at = options.x !== undefined && options.y !== undefined ? view.zoneAt(options.x, options.y) : null;
  const zone = at?.id ?? new URLSearchParams(location.search).get('zone') ?? view.zones[0]?.id;
  if (zone === undefined) {
    showError('The server lists no zones to join.');
    return;
  }
  joinButton.disabled = true;
  try {
    await connection.join(zone, options);
    joined(true);
    byId('world').focus();
  } catch (e) {
    showError(e instanceof Error ? e.message : String(e));
    joined(false);
  }
}

const keyboard = new KeyboardMove((velocity) => connection.move(velocity));

function typingInForm(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

document.addEventListener('keydown', (e) => {
  if (typingInForm(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (keyboard.press(e.code) || spellBar.pickByKey(e.key)) e.preventDefault();
});
document.addEventListener('keyup', (e) => {
  if (keyboard.release(e.code)) e.preventDefault();
});
window.addEventListener('blur', () => keyboard.releaseAll());

canvas.onPick = (id) => {
  canvas.target = id;
  canvas.requestDraw();
  if (id === null || !connection.connected) return;
  const key = view.keyOf(id)!;
  const spell = spellBar.picked;
  if (spell === null) {
    log.add('info', `Picked ${key}: now pick a spell to cast on it.`);
    return;
  }
  const onSelf = key === view.avatar;
  if (!connection.cast(onSelf ? { spell } : { spell, target: key })) showError(`Cannot cast ${spell}: not in the world.`);
  else log.add('info', `You cast ${spell}${onSelf ? '' : ` on ${key}`}.`);
};

form.addEventListener('submit', (e) => {
  e.preventDefault();
  void join();
});
leaveButton.addEventListener('click', () => {
  void connection.leave().finally(() => {
    view.clear();
    joined(false);
    log.add('info', 'You left the world.');
  });
});

async function loadWorld(): Promise<void> {
  const params = new URLSearchParams(location.search);
  nameInput.value = params.get('name') ?? '';
  xInput.value = params.get('x') ?? '';
  yInput.value = params.get('y') ?? '';
  try {
    const response = await fetch('zones');
    if (!response.ok) throw new Error(`GET /zones answered ${response.status}`);
    const zones = (await response.json()) as ZonesResponse;
    view.layout(zones.world, zones.zones);
    breedSelect.replaceChildren(...zones.breeds.map((b) => new Option(b, b)));
    const breed = params.get('breed');
    if (breed !== null) breedSelect.value = breed;
    update();
  } catch (e) {
    showError(`Could not read the world from the server: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (params.get('join') === '1') await join();
}

window.servePage = {
  state: () => ({
    connected: connection.connected,
    avatar: view.avatar,
    zone: view.zone,
    tick: view.tick,
    spells: view.spells,
    entities: view.entities().map(({ key, breed, x, y, health }) => ({ key, breed, x, y, health })),
    errors,
  }),
  screenPosition: (key) => {
    const e = view.byKey(key);
    return e ? canvas.screenPosition(e.id) : null;
  },
  framesDrawn: () => canvas.framesDrawn,
};

joined(false);
void loadWorld();
