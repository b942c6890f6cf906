import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { renderCreditNotePdf, type CreditNotePdf } from './credit-note-pdf.ts';
import type { PdfParty } from './finance-pdf-page.ts';
import { renderInvoicePdf, type InvoicePdf } from './invoice-pdf.ts';
import { renderReceiptPdf, type ReceiptPdf } from './receipt-pdf.ts';
import { pdfLayout, pdfText } from '../../../tests/helpers/pdf-text.ts';

const seller: PdfParty = {
  name: 'Kora Delta Engineering & Logistics Ltd',
  lines: ['14 Marina Road, Apapa, Lagos', 'RC 0000000', 'TIN 12345678-0001', '', 'accounts@example.com'],
};
const buyer: PdfParty = { name: 'Example Client Ltd', lines: ['Plot 7, Industrial Layout, Port Harcourt', 'RC 1111111', 'TIN 87654321-0001'] };

const invoice: InvoicePdf = {
  number: 'INV-2026-0001',
  issueDate: '2026-11-27',
  dueDate: '2026-12-27',
  seller,
  buyer,
  projectName: 'Onne warehouse extension',
  milestoneName: 'Steel erected',
  lines: [
    { description: 'Structural steel erection', quantity: 1, unitPriceKobo: 4_500_000_000n, vatRateBp: 750, netKobo: 4_500_000_000n, vatKobo: 337_500_000n },
    { description: 'Anchor bolts', quantity: 1200, unitPriceKobo: 1_250_050n, vatRateBp: 750, netKobo: 1_500_060_000n, vatKobo: 112_504_500n },
    { description: 'Clinic supplies', quantity: 1, unitPriceKobo: 35_000_000n, vatRateBp: 0, netKobo: 35_000_000n, vatKobo: 0n },
  ],
  netKobo: 6_035_060_000n,
  vatKobo: 450_004_500n,
  grossKobo: 6_485_064_500n,
  bank: { bankName: 'Example Bank Plc', accountName: 'Kora Delta Engineering & Logistics Ltd', accountNumber: '0123456789' },
  notes: 'Retention of 5% is held until completion.',
};

const creditNote: CreditNotePdf = {
  number: 'CN-2026-0001',
  issueDate: '2026-12-02',
  invoiceNumber: 'INV-2026-0001',
  invoiceIssueDate: '2026-11-27',
  seller,
  buyer,
  projectName: 'Onne warehouse extension',
  reason: 'Two supervision days were not worked.',
  lines: [{ description: 'Site supervision, 2 days', netKobo: 17_000_000n, vatKobo: 1_275_000n }],
  netKobo: 17_000_000n,
  vatKobo: 1_275_000n,
  grossKobo: 18_275_000n,
};

const receipt: ReceiptPdf = {
  receiptNumber: 'RCT-INV-2026-0001-1',
  receivedOn: '2026-12-10',
  amountKobo: 2_500_000_000n,
  method: 'Bank transfer',
  reference: 'FT26344ABCD123',
  invoiceNumber: 'INV-2026-0001',
  invoiceGrossKobo: 6_485_064_500n,
  paidToDateKobo: 2_500_000_000n,
  outstandingKobo: 3_985_064_500n,
  seller,
  buyer,
  projectName: 'Onne warehouse extension',
};

/** The text as one line: pdf.js's line ends become spaces. */
const flat = async (pdf: Buffer) => (await pdfText(pdf)).replace(/\s*\n\s*/g, ' ');

async function info(pdf: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const { info } = await doc.getMetadata();
    const words: Array<{ str: string; right: number; y: number }> = [];
    for (let n = 1; n <= doc.numPages; n++) {
      for (const item of (await (await doc.getPage(n)).getTextContent()).items) {
        if ('str' in item && item.str.trim()) words.push({ str: item.str, right: item.transform[4] + item.width, y: item.transform[5] });
      }
    }
    return { pages: doc.numPages, info: info as Record<string, unknown>, words };
  } finally {
    await doc.destroy();
  }
}

const manyLines = (count: number): InvoicePdf['lines'] =>
  Array.from({ length: count }, (_, i) => ({ description: `Line item ${i + 1}`, quantity: 1, unitPriceKobo: 100_000n, vatRateBp: 750, netKobo: 100_000n, vatKobo: 7_500n }));

describe('renderInvoicePdf', () => {
  it('prints the invoice: parties, dates in words, lines, totals in naira and how to pay', async () => {
    const pdf = await renderInvoicePdf(invoice);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await flat(pdf);
    for (const expected of [
      'INVOICE',
      'INV-2026-0001',
      'Kora Delta Engineering & Logistics Ltd',
      'TIN 12345678-0001',
      'accounts@example.com',
      'Bill to'.toUpperCase(),
      'Example Client Ltd',
      'TIN 87654321-0001',
      '27 November 2026',
      '27 December 2026',
      'Onne warehouse extension',
      'Steel erected',
      'Structural steel erection',
      '1,200',
      '₦12,500.50',
      '₦45,000,000.00',
      '₦3,375,000.00',
      '7.5%',
      'Exempt',
      'Subtotal ₦60,350,600.00',
      'VAT ₦4,500,045.00',
      'Total due ₦64,850,645.00',
      'Example Bank Plc',
      '0123456789',
      'Quote INV-2026-0001 as the payment reference.',
      'Payment terms: 30 days. Please pay the total by 27 December 2026.',
      'Retention of 5% is held until completion.',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
    const { pages, info: meta } = await info(pdf);
    expect(pages).toBe(1);
    expect(meta.Title).toBe('Invoice INV-2026-0001');
    expect(meta.Author).toBe('Kora Delta Engineering & Logistics Ltd');
  });

  it('names the one rate on the VAT total, prints rates from basis points, and says when payment is due on receipt', async () => {
    const one = await flat(await renderInvoicePdf({ ...invoice, lines: invoice.lines.slice(0, 2), dueDate: invoice.issueDate }));
    expect(one).toContain('VAT at 7.5%');
    expect(one).toContain('Payment is due on receipt, by 27 November 2026.');
    const rates = [1000, 5, 1250, 10_000];
    const text = await flat(await renderInvoicePdf({ ...invoice, lines: rates.map((vatRateBp, i) => ({ ...invoice.lines[0], description: `Rate ${i}`, vatRateBp })) }));
    for (const label of ['10%', '0.05%', '12.5%', '100%']) expect(text).toContain(` ${label} `);
  });

  it('continues 40 lines onto a second page, with the column headings again and the page count in the footer', async () => {
    const pdf = await renderInvoicePdf({ ...invoice, lines: manyLines(40), notes: '' });
    const layout = await pdfLayout(pdf);
    expect(layout).toHaveLength(2);
    const second = layout[1].texts.map((t) => t.str);
    expect(second).toContain('Invoice INV-2026-0001 (continued)');
    for (const heading of ['Description', 'Qty', 'Unit price', 'VAT rate', 'Net', 'VAT']) expect(second).toContain(heading);
    expect(second).toContain('Page 2 of 2');
    expect(layout[0].texts.map((t) => t.str)).toContain('Page 1 of 2');
    const text = await flat(pdf);
    for (let i = 1; i <= 40; i++) expect(text).toContain(`Line item ${i} `);
    // The headings on the second page stand above its first row.
    const headingY = layout[1].texts.find((t) => t.str === 'Description')!.y;
    const firstRow = layout[1].texts.find((t) => t.str.startsWith('Line item'))!;
    expect(firstRow.y).toBeGreaterThan(headingY);
    // No line of text runs into the footer of either page.
    for (const page of layout) {
      const footerTop = page.height - 64 + 22;
      for (const t of page.texts) if (!/^Page \d of \d$/.test(t.str) && !t.str.startsWith('Kora Delta Engineering & Logistics Ltd ·')) expect(t.y).toBeLessThan(footerTop);
    }
  });

  it('wraps a long description under its first line and right-aligns the amounts', async () => {
    const long = 'Supply and erection of structural steel '.repeat(6).trim();
    const pdf = await renderInvoicePdf({ ...invoice, lines: [{ ...invoice.lines[0], description: long }, ...invoice.lines.slice(1)] });
    const page = (await pdfLayout(pdf))[0];
    const pieces = page.texts.filter((t) => /structural steel|Supply and/.test(t.str));
    expect(new Set(pieces.map((t) => Math.round(t.y))).size).toBeGreaterThanOrEqual(3);
    expect(new Set(pieces.map((t) => Math.round(t.x))).size).toBe(1);
    // The Net column: three amounts of different widths ending at the same x.
    const { words } = await info(pdf);
    const net = words.filter((w) => ['₦45,000,000.00', '₦15,000,600.00', '₦350,000.00'].includes(w.str) && w.right > 400);
    expect(net.length).toBeGreaterThanOrEqual(3);
    const rights = net.map((w) => w.right);
    expect(Math.max(...rights) - Math.min(...rights)).toBeLessThan(0.5);
  });

  it('prints the largest amount whole, and cleans control characters out of user text', async () => {
    const max = 999_999_999_999_999n;
    const text = await flat(
      await renderInvoicePdf({
        ...invoice,
        lines: [{ description: 'Big\u0007 job\u200b\tphase 1', quantity: 1, unitPriceKobo: max, vatRateBp: 0, netKobo: max, vatKobo: 0n }],
        netKobo: max,
        vatKobo: 0n,
        grossKobo: max,
        milestoneName: null,
      }),
    );
    expect(text).toContain('₦9,999,999,999,999.99');
    expect(text).toContain('Big job');
    expect(text).not.toContain('\u0007');
    expect(text).not.toContain('MILESTONE');
  });
});

describe('renderCreditNotePdf', () => {
  it('names the invoice credited, the reason, the lines and the credited totals', async () => {
    const pdf = await renderCreditNotePdf(creditNote);
    const text = await flat(pdf);
    for (const expected of [
      'CREDIT NOTE',
      'CN-2026-0001',
      '2 December 2026',
      'Credits invoice INV-2026-0001 issued 27 November 2026.',
      'Two supervision days were not worked.',
      'Site supervision, 2 days',
      'Net credited',
      'VAT credited',
      'Net credited ₦170,000.00',
      'VAT credited ₦12,750.00',
      'Total credited ₦182,750.00',
      'Example Client Ltd',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
    const { pages, info: meta } = await info(pdf);
    expect(pages).toBe(1);
    expect(meta.Title).toBe('Credit note CN-2026-0001');
    expect(meta.Author).toBe('Kora Delta Engineering & Logistics Ltd');
  });

  it('continues many credited lines onto another page', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({ description: `Credited line ${i + 1}`, netKobo: 100n, vatKobo: 8n }));
    const layout = await pdfLayout(await renderCreditNotePdf({ ...creditNote, lines }));
    expect(layout.length).toBe(3);
    for (const page of layout.slice(1)) {
      const texts = page.texts.map((t) => t.str);
      expect(texts).toContain('Credit note CN-2026-0001 (continued)');
      expect(texts).toContain('Net credited');
      expect(texts).toContain(`Page ${page.page} of 3`);
    }
    const last = layout[2].texts.map((t) => t.str);
    expect(last).toContain('Credited line 60');
    expect(last).toContain('Total credited');
  });
});

describe('renderReceiptPdf', () => {
  it('prints the amount received, how, against which invoice and what is outstanding', async () => {
    const pdf = await renderReceiptPdf(receipt);
    const text = await flat(pdf);
    for (const expected of [
      'RECEIPT',
      'RCT-INV-2026-0001-1',
      '10 December 2026',
      'Received with thanks',
      '₦25,000,000.00',
      'Bank transfer',
      'FT26344ABCD123',
      'INV-2026-0001',
      '₦64,850,645.00',
      'Outstanding after this payment ₦39,850,645.00',
      'Example Client Ltd',
      'Onne warehouse extension',
    ]) {
      expect(text).toContain(expected);
    }
    const { pages, info: meta } = await info(pdf);
    expect(pages).toBe(1);
    expect(meta.Title).toBe('Receipt RCT-INV-2026-0001-1');
    expect(meta.Author).toBe('Kora Delta Engineering & Logistics Ltd');
  });

  it('says paid in full when nothing is outstanding, and leaves out an empty reference', async () => {
    const text = await flat(await renderReceiptPdf({ ...receipt, reference: '', method: 'Paystack (card, transfer or USSD)', paidToDateKobo: receipt.invoiceGrossKobo, outstandingKobo: 0n }));
    expect(text).toContain('Outstanding after this payment Paid in full');
    expect(text).toContain('Paystack (card, transfer or USSD)');
    expect(text).not.toContain('Reference');
  });
});
