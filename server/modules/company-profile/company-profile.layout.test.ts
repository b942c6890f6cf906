import { beforeAll, describe, expect, it } from 'vitest';
import { pdfLayout, type PdfPageLayout, type PdfTextItem } from '../../../tests/helpers/pdf-text.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import type { PublishedReader } from '../site-content/published-company.ts';
import { companyProfilePdf } from './company-profile.service.ts';

// Issue 21: 'Our Services' stood alone at the foot of page 1, and a bullet's wrapped lines started
// at the margin instead of under the first line's text.

const HEADINGS = ['Who We Are', 'Company Facts', 'Our Services', 'Our Team', 'Certifications', 'Contact'];
const BODY_SIZE = 10.5;

let pages: PdfPageLayout[];
beforeAll(async () => {
  // The starting content (what a fresh install publishes).
  const startingContent: PublishedReader = { get: (section) => SECTION_SEEDS[section] };
  pages = await pdfLayout((await companyProfilePdf(startingContent)).pdf);
});

describe('company profile PDF layout', () => {
  it('draws each section heading with at least two lines of its section under it on the same page', () => {
    const found = pages.flatMap((page) =>
      page.texts
        .filter((item) => HEADINGS.includes(item.str) && Math.round(item.size) === 16)
        .map((item) => ({ heading: item.str, page: page.page, below: page.texts.filter((other) => other.y > item.y + 1).length })),
    );
    expect(found.map((h) => h.heading)).toEqual(HEADINGS);
    for (const h of found) expect(h.below, `${h.heading} on page ${h.page}`).toBeGreaterThanOrEqual(2);
  });

  it("starts every wrapped line of a bullet under the first line's text, right of the bullet sign", () => {
    const wrapped: { bullet: PdfTextItem; first: PdfTextItem; next: PdfTextItem }[] = [];
    for (const page of pages) {
      const body = page.texts.filter((item) => Math.abs(item.size - BODY_SIZE) < 0.1);
      body.forEach((item, i) => {
        if (!item.str.startsWith('•')) return;
        // The text of the first line: the bullet's own item, or the next one on its baseline.
        let at = i;
        if (item.str.trim() === '•' && body[i + 1] && Math.abs(body[i + 1].y - item.y) < 0.5) at = i + 1;
        const first = body[at];
        for (let line = first, j = at + 1; j < body.length; j++) {
          const next = body[j];
          // A wrapped line: the very next line (one line height down) that is not a new bullet.
          if (next.str.startsWith('•') || next.y - line.y > BODY_SIZE * 1.5 || next.y <= line.y) break;
          wrapped.push({ bullet: item, first, next });
          line = next;
        }
      });
    }
    // The facts, certifications and addresses hold several bullets of more than one line.
    expect(wrapped.length).toBeGreaterThanOrEqual(4);
    for (const { bullet, first, next } of wrapped) {
      expect(next.x, `"${next.str}" after "${first.str}"`).toBeCloseTo(first.x, 1);
      expect(next.x, `"${next.str}"`).toBeGreaterThan(bullet.x + 5);
    }
  });
});
