/** Text made safe to put inside HTML (element content or a quoted attribute): panels that build rows as one innerHTML string use it for every piece of spell-made text. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
