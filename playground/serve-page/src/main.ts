/**
 * The browser page `cantrip serve` serves at `/`: join the world, watch the
 * entities around the avatar, move with WASD or the arrows, pick a spell and
 * click an entity to cast it. The pieces: zoneView (what the server said),
 * zoneConnection (the Colyseus rooms and hand-over), zoneCanvas (drawing),
 * keyboardMove, spellBar, messageLog, joinForm, pageHook (for the tests).
 * The form's fields can be filled from the address:
 * ?name=Ann&breed=Wizard&x=10&y=12&zone=z0-0, and &join=1 joins at once.
 */
import { Client } from '@colyseus/sdk';
import type { AvatarResponse, ZonesResponse } from '../../../server/protocol.js';
import { ZoneView, labelOf } from './zoneView.js';
import { ZoneConnection } from './zoneConnection.js';
import { ZoneCanvas } from './zoneCanvas.js';
import { KeyboardMove } from './keyboardMove.js';
import { SpellBar } from './spellBar.js';
import { MessageLog } from './messageLog.js';
import { JoinForm } from './joinForm.js';
import { describeServerEvent, localEvent } from './serverEvents.js';
import { installPageHook } from './pageHook.js';

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element as T;
}

const status = byId('status');
const params = new URLSearchParams(location.search);

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
    log.add('info', `In zone ${message.zone} as ${nameOf(message.avatar)}.`);
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
      // A cast of yours that failed in the world is an error to see, like a refused one.
      if (event.type === 'cast-error') showError(describeServerEvent(event, view));
      else log.add('event', describeServerEvent(event, view));
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
  dropped(reason) {
    log.add('info', `The connection dropped (${reason}); getting back to your avatar…`);
  },
  reconnected(zone) {
    // A new room's first view lists everything in range again: what it leaves out is dropped then.
    if (zone !== null) view.handover(zone);
    log.add('info', zone === null ? 'Reconnected.' : `Back in zone ${zone} as the same avatar.`);
    update();
  },
  disconnected(reason) {
    showError(reason);
    view.clear();
    joined(false);
  },
}, locateAvatar);

/** Where the server says the avatar is now (GET /avatar/<id>: the zone that owns it, once served), 'gone' when it left the world. */
async function locateAvatar(avatar: string): Promise<string | null | 'gone'> {
  const response = await fetch(`avatar/${encodeURIComponent(avatar)}`);
  if (response.status === 404) return 'gone';
  if (!response.ok) throw new Error(`GET /avatar answered ${response.status}`);
  const at = (await response.json()) as AvatarResponse;
  return at.ready ? at.zone : null;
}

/** An entity as the canvas labels it (a bare id until it is in view). */
function nameOf(key: string): string {
  const e = view.byKey(key);
  return e ? labelOf(e) : key;
}

function showError(text: string): void {
  errors.push(text);
  log.add('error', text);
}

function update(): void {
  const avatar = view.avatarEntity();
  const parts = connection.connected
    ? [`zone ${view.zone ?? '…'}`, `you: ${view.avatar === null ? '…' : nameOf(view.avatar)}`, avatar ? `(${avatar.x.toFixed(1)}, ${avatar.y.toFixed(1)}) ♥${Math.round(avatar.health)}` : '', `${view.entities().length} in view`, `tick ${view.tick}`]
    : ['not in the world'];
  const text = parts.filter((p) => p !== '').join(' · ');
  if (status.textContent !== text) {
    status.textContent = text;
    status.title = text; // the whole line, when a narrow window cuts it
  }
  canvas.requestDraw();
}

const form = new JoinForm(
  byId<HTMLFormElement>('join-form'),
  () => void join(),
  () => void leave(),
);

function joined(inWorld: boolean): void {
  form.setState(inWorld ? 'in' : 'out');
  if (!inWorld) spellBar.setSpells([]);
  update();
}

async function join(): Promise<void> {
  const options = form.options();
  const at = options.x !== undefined && options.y !== undefined ? view.zoneAt(options.x, options.y) : null;
  const zone = at?.id ?? params.get('zone') ?? view.zones[0]?.id;
  if (zone === undefined) {
    showError('The server lists no zones to join.');
    return;
  }
  form.setState('joining');
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
    log.add('info', `Picked ${nameOf(key)}: now pick a spell to cast on it.`);
    return;
  }
  const onSelf = key === view.avatar;
  if (!connection.cast(onSelf ? { spell } : { spell, target: key })) showError(`Cannot cast ${spell}: not in the world.`);
  else log.add('info', `You cast ${spell}${onSelf ? '' : ` on ${nameOf(key)}`}.`);
};

async function leave(): Promise<void> {
  await connection.leave().catch(() => {});
  view.clear();
  joined(false);
  log.add('info', 'You left the world.');
}

async function loadWorld(): Promise<void> {
  form.fill(params);
  try {
    const response = await fetch('zones');
    if (!response.ok) throw new Error(`GET /zones answered ${response.status}`);
    const zones = (await response.json()) as ZonesResponse;
    view.layout(zones.world, zones.zones);
    form.setBreeds(zones.breeds);
    update();
  } catch (e) {
    showError(`Could not read the world from the server: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (params.get('join') === '1') await join();
}

installPageHook(view, canvas, connection, errors);
joined(false);
void loadWorld();
