/**
 * Text from a file the user did not write (a game's `--api` declaration, its
 * `doc` strings) printed to a terminal: control characters are shown as
 * escapes instead of sent, so a doc string cannot move the cursor, recolour
 * or clear the screen, set the window title (OSC), or reorder what follows
 * (Unicode bidirectional overrides, "Trojan Source").
 */

/** C0 controls (tab and newline included: a doc is one line), DEL, C1 controls, and the bidi embedding/override/isolate marks. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every terminal control character written as a visible escape (`\x1b`, `\u202e`). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
