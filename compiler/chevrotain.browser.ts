/**
 * chevrotain in a browser: the package entry, bundled with the rest. The
 * Node twin (`chevrotain.ts`) loads chevrotain's single-file bundle through
 * `require`; bundlers swap this file in (the package.json `browser` field;
 * the playground's Vite config for the sources).
 */
export { createToken, EmbeddedActionsParser, Lexer, LLkLookaheadStrategy, tokenMatcher } from 'chevrotain';
