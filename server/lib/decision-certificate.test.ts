import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { renderDecisionCertificate } from './decision-certificate.ts';
import { pdfText } from '../../tests/helpers/pdf-text.ts';

const facts = {
  issuer: 'Placeholder Engineering Ltd',
  title: 'Approval certificate',
  subjectLines: [
    ['Project', 'Ọ̀yọ́ water works'],
    ['Subject', 'Progress report of 20 Nov 2026'],
    ['Version', 'Version 2'],
  ] as const,
  decision: 'approved',
  decidedBy: 'Ada Obi (Client Ltd)',
  decidedAt: new Date('2026-11-27T10:15:00Z'),
  address: '203.0.113.9',
  sha256: '0d'.repeat(32),
  comment: 'Fine by us.\nGo ahead.',
  reference: 'b3f2c1d0-0000-4000-8000-000000000000',
};

async function pages(pdf: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}

describe('renderDecisionCertificate', () => {
  it('prints every fact of the decision on one page', async () => {
    const pdf = await renderDecisionCertificate(facts);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of ['Approval certificate', 'Ọ̀yọ́ water works', 'Progress report of 20 Nov 2026', 'Version 2', 'APPROVED', 'Ada Obi (Client Ltd)', '203.0.113.9', '0d'.repeat(32), 'Fine by us.', '2026-11-27T10:15:00Z', 'b3f2c1d0-0000-4000-8000-000000000000']) {
      expect(text.replace(/\n/g, ' ')).toContain(expected.normalize('NFC'));
    }
    expect(await pages(pdf)).toBe(1);
  });

  it('keeps a very long comment to one page, and says rejected', async () => {
    const pdf = await renderDecisionCertificate({ ...facts, decision: 'rejected', comment: 'Too costly. '.repeat(2000) });
    expect(await pages(pdf)).toBe(1);
    expect(await pdfText(pdf)).toContain('REJECTED');
  });
});
