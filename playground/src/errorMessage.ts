/** The text of anything thrown (an Error's message, else the value as a string). */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
