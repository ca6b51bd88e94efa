export { serveWorld, type ServeWorldOptions, type ServedWorldHandle } from './serve-world.js';
