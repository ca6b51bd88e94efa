/**
 * Sections of docs/runtime.md generated from the code that defines them
 * (the host API table, the event table, the entity properties), between two marker comments; a
 * test per section keeps the document equal to the code.
 */

/** Replace the text between `begin` and `end` in `doc` with `body`; an Error when the markers are missing. */
export function withGeneratedSection(doc: string, begin: string, end: string, body: string): string {
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`The document has no '${begin}' … '${end}' markers.`);
  return doc.slice(0, start + begin.length) + '\n' + body + '\n' + doc.slice(stop);
}
