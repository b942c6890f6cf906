// V8 keeps the source text of every loaded module for as long as the process runs (lazy compilation
// reads it again). A file with even one character above U+00FF is kept as a two-byte string, twice
// its size: the compiled server (a dash in a regular expression) and the pages' server build (text
// with dashes, quotes and the naira sign) were 1.6 and 2.1 MB of heap instead of 0.8 and 1.1
// (decision 301). The server's builds write those characters as escapes instead.

const WIDE = /(\\*)([\u0100-\uffff])/g;

/**
 * `code` with every UTF-16 unit above U+00FF written as `\uXXXX`: the same program wherever such a
 * character can stand in JavaScript (strings, templates but for their raw text, regular expressions
 * with or without the u flag, identifiers, comments). An identity escape before one (`\—`) is dropped.
 */
export function oneByteSource(code: string): string {
  return code.replace(WIDE, (_whole, slashes: string, char: string) => {
    const escape = `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + escape;
  });
}
