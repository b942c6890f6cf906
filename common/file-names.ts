// Decision 112: a file name is shown to people and sent in headers, so nothing in it may change how
// it reads. Bidirectional controls make "invoice\u202Egnp.exe.png" display as "invoicegnp.exe.png"
// reversed into "...png.exe"; other control and invisible format characters hide or fake parts of
// it. All of them are removed from every stored, shown or sent name.

// C0 and C1 controls, DEL.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A-E, U+2066-9),
// zero-width and invisible formatting (U+200B-D, U+2060-4, U+FEFF, U+180E, U+FFF9-B), line and
// paragraph separators (U+2028/9), and lone UTF-16 surrogates.
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2028\u2029\u180e\ufeff\ufff9-\ufffb]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** True when the name holds a character that changes how it displays (see above). */
export const hasDeceptiveCharacters = (name: string): boolean => new RegExp(CONTROLS.source).test(name) || new RegExp(INVISIBLE.source).test(name);

/** The name without control, direction or invisible characters (spaces collapsed, trimmed). */
export function displaySafeName(name: string): string {
  return name.replace(CONTROLS, '').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}
