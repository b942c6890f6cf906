import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SECTIONS, type Report } from '../../../common/schemas/reports.ts';
import { pdfLayout, pdfText, type PdfPageLayout } from '../../../tests/helpers/pdf-text.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import { renderReportPdf, type PdfImage } from './report-pdf.ts';

// Issue 21: the report PDF drew a box for every CR of text typed in a browser, left the 'Images'
// heading alone at the foot of a page and gave each image a page of its own.

const HEADINGS: string[] = [...REPORT_SECTIONS.map((s) => s.label), 'Images'];

const reportWith = (fields: Partial<Report> = {}): Report => ({
  _id: '00000000-0000-4000-8000-000000000001',
  date: '2026-11-20',
  projectCode: 'ELM-04',
  projectId: '00000000-0000-4000-8000-000000000002',
  project: 'Eleme pipeline tie-in',
  team: 'Civil crew B',
  tasks: 'Excavated trench section 4',
  progress: 'Forty percent of the trench is open',
  challenges: '',
  actionTaken: '',
  helpNeeded: '',
  nextSteps: '',
  feedback: '',
  conclusion: '',
  images: [],
  pdfUrl: '',
  createdAt: '2026-11-20T10:00:00.000Z',
  correctedAt: null,
  version: 1,
  ...fields,
});

async function render(report: Report, images: PdfImage[] = []): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await renderReportPdf(SECTION_SEEDS.company, report, images)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let photos: PdfImage[];
beforeAll(async () => {
  // Small files keep the many renders quick; their size in the PDF is set by the layout, not the pixels.
  const photo = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#0b5cab' } }).jpeg().toBuffer();
  photos = [1, 2, 3, 4, 5].map((n) => ({ name: `site-photo-${n}.jpg`, data: photo, width: 160, height: 120 }));
});

describe('text typed in a browser', () => {
  it('is drawn without a box for CR, tab or any other control character, line by line', async () => {
    // Rows stored before line endings were normalised still hold CRLF; the renderer copes by itself.
    const typed = 'First line\r\nSecond\u200b line\rThird\tline\u0007\u202e\ufeff\r\n';
    const pdf = await render(reportWith({ tasks: typed, progress: typed, conclusion: typed, team: 'Crew\r\nB' }), photos.slice(0, 1));
    const text = await pdfText(pdf);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\uFFFD\u200b\u202e\ufeff]/);
    const lines = text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
    expect(lines.filter((l) => l === 'First line')).toHaveLength(3);
    expect(lines.filter((l) => l === 'Second line')).toHaveLength(3);
    expect(lines.filter((l) => l === 'Third line')).toHaveLength(3);
    // A single-line field with a stray break stays on its line.
    expect(lines).toContain('Team: Crew B');
    // The embedded font holds no glyph for a control character (PDFKit would map CR to a missing-glyph box).
    for (const page of await pdfLayout(pdf)) for (const item of page.texts) expect(item.str).not.toMatch(/\r/);
  });
});

/** Each heading on a page, with what stands below it on the same page. */
function headingsOf(pages: PdfPageLayout[]) {
  return pages.flatMap((page) =>
    page.texts
      .filter((item) => HEADINGS.includes(item.str) && Math.round(item.size) === 13)
      .map((item) => ({
        heading: item.str,
        page: page.page,
        textsBelow: page.texts.filter((other) => other.y > item.y + 1).length,
        imagesBelow: page.images.filter((image) => image.y > item.y).length,
      })),
  );
}

describe('headings', () => {
  it('never stand last on a page, wherever the text before them ends', async () => {
    const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} line ${i + 1}`).join('\n');
    let seen = 0;
    // The first section grows a line at a time, so every later heading passes the foot of page 1.
    for (let n = 20; n <= 62; n++) {
      const report = reportWith({
        tasks: lines(n, 'Task'),
        progress: lines(3, 'Progress'),
        challenges: lines(3, 'Challenge'),
        nextSteps: lines(2, 'Step'),
        conclusion: lines(2, 'Conclusion'),
      });
      const pages = await pdfLayout(await render(report, photos.slice(0, 3)));
      for (const h of headingsOf(pages)) {
        seen++;
        if (h.heading === 'Images') expect(h.imagesBelow, `Images heading on page ${h.page} with ${n} task lines`).toBeGreaterThan(0);
        else expect(h.textsBelow, `${h.heading} on page ${h.page} with ${n} task lines`).toBeGreaterThanOrEqual(2);
      }
    }
    expect(seen).toBe(43 * 6);
  }, 90_000);
});

describe('images', () => {
  it('stand two to a row, half the text width each, with their names right under them', async () => {
    const pages = await pdfLayout(await render(reportWith(), photos));
    const placed = pages.flatMap((page) => page.images.map((image) => ({ ...image, page: page.page })));
    expect(placed).toHaveLength(5);
    // Two rows under the report's text on page 1, the fifth image on page 2.
    expect(pages.map((page) => page.images.length)).toEqual([4, 1]);
    const [a, b, c, d, e] = placed;
    expect(b.y).toBeCloseTo(a.y, 1);
    expect(d.y).toBeCloseTo(c.y, 1);
    expect(b.x).toBeGreaterThan(a.x + a.width);
    expect(d.x).toBeCloseTo(b.x, 1);
    expect(c.y).toBeGreaterThan(a.y + a.height);
    expect(e.x).toBeCloseTo(a.x, 1);
    for (const image of placed) {
      // Readable: about half the 495 pt text width, not a thumbnail and not a whole page.
      expect(image.width).toBeGreaterThan(220);
      expect(image.width).toBeLessThan(250);
    }
    placed.forEach((image, i) => {
      const caption = pages[image.page - 1].texts.find((item) => item.str === `site-photo-${i + 1}.jpg`);
      expect(caption, `caption of image ${i + 1}`).toBeDefined();
      expect(caption!.y).toBeGreaterThan(image.y + image.height);
      expect(caption!.y).toBeLessThan(image.y + image.height + 16);
      expect(caption!.x).toBeGreaterThanOrEqual(image.x - 1);
      expect(caption!.x).toBeLessThan(image.x + image.width);
    });
  });
});

describe('dates and times', () => {
  it('prints the day as a day and the time it was added in Lagos time, with the zone named (issue 22)', async () => {
    // 23:30 UTC is already the next day in Lagos, whatever zone the server runs in.
    const text = await pdfText(await render(reportWith({ date: '2026-11-20', createdAt: '2026-11-20T23:30:00.000Z' })));
    const lines = text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
    expect(lines).toContain('Date: 20 Nov 2026');
    expect(lines).toContain('Added: 21 Nov 2026, 00:30 WAT');
  });
});
