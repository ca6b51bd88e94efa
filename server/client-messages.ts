/**
 * Every message a client sends is checked before anything acts on it: a
 * `move` needs two finite numbers, a `cast` a spell clients may cast, a
 * target id the zone can see and arguments of the allowed types. A message
 * that does not fit is answered with an `error` (server/protocol.ts), never
 * applied, never a crash.
 */

import type { EntityId } from '../runtime/events/events.js';
import { ERROR_CODE, type CastArgument, type ErrorMessage } from './protocol.js';
import type { EntityCommand } from './zone-bus.js';

/** The most arguments a cast may carry, and the longest string argument. */
export const MAX_CAST_ARGS = 8;
export const MAX_STRING_ARG = 200;

export type Checked = { readonly ok: true; readonly command: EntityCommand } | { readonly ok: false; readonly error: ErrorMessage };

const refuse = (code: ErrorMessage['code'], message: string): Checked => ({ ok: false, error: { code, message } });

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A `move`: the velocity, clamped to `speed` (the avatar's, buffs included). */
export function checkMove(message: unknown, speed: number): Checked {
  if (!isRecord(message) || typeof message.vx !== 'number' || typeof message.vy !== 'number' || !Number.isFinite(message.vx) || !Number.isFinite(message.vy)) {
    return refuse(ERROR_CODE.badMessage, 'move needs { vx, vy }: two finite numbers.');
  }
  const length = Math.hypot(message.vx, message.vy);
  const scale = length > speed && length > 0 ? speed / length : 1;
  return { ok: true, command: { kind: 'move', vx: message.vx * scale, vy: message.vy * scale } };
}

/** A `cast`: a spell clients may cast, a target the zone can see (`visible`), plain arguments. */
export function checkCast(message: unknown, spells: ReadonlySet<string>, visible: (id: EntityId) => boolean): Checked {
  if (!isRecord(message) || typeof message.spell !== 'string') return refuse(ERROR_CODE.badMessage, 'cast needs { spell: string, target?: string, args?: [...] }.');
  const spell = message.spell;
  if (!spells.has(spell)) return refuse(ERROR_CODE.unknownSpell, `Unknown spell ${JSON.stringify(spell.slice(0, 64))}: cast one of ${[...spells].slice(0, 20).join(', ')}.`);
  let target: EntityId | null = null;
  if (message.target !== undefined && message.target !== null) {
    const id = typeof message.target === 'string' && /^\d{1,16}$/.test(message.target) ? Number(message.target) : NaN;
    if (!Number.isSafeInteger(id)) return refuse(ERROR_CODE.badArguments, 'cast target must be an entity id (a string of digits).');
    if (!visible(id)) return refuse(ERROR_CODE.unknownTarget, `No entity ${message.target} is in view.`);
    target = id;
  }
  const args = message.args ?? [];
  if (!Array.isArray(args) || args.length > MAX_CAST_ARGS) return refuse(ERROR_CODE.badArguments, `cast args must be a list of at most ${MAX_CAST_ARGS} values.`);
  for (const [i, a] of args.entries()) {
    const fine = (typeof a === 'number' && Number.isFinite(a)) || typeof a === 'boolean' || (typeof a === 'string' && a.length <= MAX_STRING_ARG);
    if (!fine) return refuse(ERROR_CODE.badArguments, `cast args[${i}] must be a finite number, a boolean or a string of at most ${MAX_STRING_ARG} characters.`);
  }
  return { ok: true, command: { kind: 'cast', spell, target, args: args as CastArgument[] } };
}
