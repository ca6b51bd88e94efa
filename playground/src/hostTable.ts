/**
 * The world's one host table: the built-ins and the playground's own game
 * API. The compiler and the language service read it, and the editor's
 * highlighting reads its names before the compiler has loaded.
 */
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import type { HostFunctionSpec } from '../../vm/host.js';
import { PLAYGROUND_GAME_HOSTS } from './world/gameApi.js';

export const PLAYGROUND_HOSTS: readonly HostFunctionSpec[] = [...WORLD_HOST_FUNCTIONS, ...PLAYGROUND_GAME_HOSTS];
