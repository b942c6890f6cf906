import { describe, expect, it } from 'vitest';
import { oneByteSource } from '../../scripts/one-byte-source.ts';

const evaluate = (code: string): unknown => new Function(`return (${code});`)();

describe('one-byte source of the server builds (decision 301)', () => {
  it('writes every character above U+00FF as an escape, and the program means the same', () => {
    for (const code of ['"a—b ₦5"', '`x—${1}`', '"😀"', '"café ©"', '"\\\\—"']) {
      const out = oneByteSource(code);
      expect(out).not.toMatch(/[\u0100-\uffff]/);
      expect(evaluate(out)).toBe(evaluate(code));
    }
  });

  it('keeps regular expressions matching the same text, with or without the u flag', () => {
    for (const [code, samples] of [
      ['/^(-?)\\s*₦\\s*/', ['₦ 5', '-₦5', 'N5']],
      ['/[“”]/g', ['“', '"']],
      ['/😀/u', ['😀', '\ud83d']],
      ['/[😀-😂]/u', ['😁', '\ude00']],
      ['/\\—/', ['—', '\\']],
    ] as const) {
      const out = oneByteSource(code);
      expect(out).not.toMatch(/[\u0100-\uffff]/);
      const [before, after] = [evaluate(code), evaluate(out)] as RegExp[];
      for (const sample of samples) expect(after.test(sample), `${out} on ${sample}`).toBe(before.test(sample));
    }
  });

  it('leaves one-byte code as it is', () => {
    const code = 'const price = "N5 © é"; // plain';
    expect(oneByteSource(code)).toBe(code);
  });
});
