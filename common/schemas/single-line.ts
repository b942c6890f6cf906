// Decision 195: a name or title is one line that people read (in lists, mail subjects, PDFs, the
// browser's tab). Characters that change how it reads without being seen are refused in every
// single-line name and title field: "Acme\u202Egnp.exe" shows as "Acmeexe.png", an invisible space
// makes "Acme" and "Ac\u200Bme" two vendors that look the same, a line break fakes a second line.
// Long texts (messages, descriptions) keep them: a language may need direction marks there.
//
// No zod here: the public forms check their fields in the browser with this file alone (decision
// 144); text.ts wraps it for the zod schemas, and form-check.test.ts proves the two agree.
//
// The list is written out rather than taken from \p{Cf}, so the browser and the server decide alike
// whatever Unicode version their engines know.

/* eslint-disable no-misleading-character-class -- the classes list lone marks, joiners and emoji modifiers on purpose */
const REFUSED = new RegExp(
  [
    '[\\u0000-\\u001f\\u007f-\\u009f]', // C0 and C1 controls, DEL (tab, line feed, carriage return among them)
    '[\\u2028\\u2029]', // line and paragraph separators
    '[\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]', // direction marks, embeddings, overrides, isolates
    '[\\u00ad\\u034f\\u180e\\u200b\\u2060-\\u2065\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb]', // invisible: soft hyphen, grapheme joiner, zero-width space, word joiner, invisible operators, BOM
    '[\\u115f\\u1160\\u17b4\\u17b5\\u3164\\uffa0]', // fillers that render as nothing (Hangul, Khmer)
    '[\\u{13430}-\\u{1343f}\\u{1bca0}-\\u{1bca3}\\u{1d173}-\\u{1d17a}\\u{e0001}\\u{e0020}-\\u{e007f}]', // format controls beyond the BMP, tag characters
  ].join('|'),
  'u',
);

// Zero-width joiner and non-joiner shape letters in Arabic (Hausa in Ajami), Persian and the Indic
// scripts, and build emoji: they stay where they join two such characters. Beside a Latin, Greek or
// Cyrillic letter, a digit, a space or at either end they only hide something, and are refused.
const JOINER = '[\\u200c\\u200d]';
const JOINABLE = '[\\p{L}\\p{M}\\p{Extended_Pictographic}]';
const LOOKALIKE_SCRIPTS = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}]';
const MISPLACED_JOINER = new RegExp(
  [
    `(?<!${JOINABLE}|[\\ufe0f\\u{1f3fb}-\\u{1f3ff}])${JOINER}`,
    `${JOINER}(?!${JOINABLE})`,
    `(?<=${LOOKALIKE_SCRIPTS}\\p{M}*)${JOINER}`,
    `${JOINER}(?=${LOOKALIKE_SCRIPTS})`,
  ].join('|'),
  'u',
);
const REFUSED_ALL = new RegExp(REFUSED.source, 'gu');
const MISPLACED_JOINERS_ALL = new RegExp(MISPLACED_JOINER.source, 'gu');
/* eslint-enable no-misleading-character-class */

/** The first character that a single-line name or title may not hold, or null when it holds none. */
export function disguisingCharacter(value: string): string | null {
  const refused = REFUSED.exec(value);
  const joiner = MISPLACED_JOINER.exec(value);
  if (refused && joiner) return refused.index < joiner.index ? refused[0] : joiner[0];
  return refused?.[0] ?? joiner?.[0] ?? null;
}

/**
 * The value with every such character removed (line breaks and other controls become spaces), spaces
 * collapsed, trimmed: for names and titles that come from outside and cannot be refused (news).
 */
export function withoutDisguisingCharacters(value: string): string {
  // eslint-disable-next-line no-control-regex -- line breaks and controls separate words: they become spaces
  const spaced = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  let cleaned = spaced.replace(REFUSED_ALL, '').replace(/\s+/g, ' ').trim();
  // Removing a joiner can bring a Latin letter next to another: again until none is left.
  for (let before = ''; before !== cleaned; ) {
    before = cleaned;
    cleaned = cleaned.replace(MISPLACED_JOINERS_ALL, '').replace(/\s+/g, ' ').trim();
  }
  return cleaned;
}

/** "U+202E": how the refused character is named in the message (it cannot be shown). */
const codePointName = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The words of the refusal: `what` starts the sentence ("Name", "The company name field"). */
export const disguisedTextMessage = (what: string, char: string) =>
  `${what} must not contain line breaks, invisible characters or text-direction controls (found ${codePointName(char)})`;

/** Why the value cannot be a single-line name or title, in words; null when it can. */
export function singleLineProblem(value: string, what: string): string | null {
  const char = disguisingCharacter(value);
  return char === null ? null : disguisedTextMessage(what, char);
}
