import { BODY_FONT, BOLD_FONT } from '../../lib/pdf-fonts.ts';
import { keepTogether, PDF_COLOURS } from '../../lib/pdf-layout.ts';
import { formatKobo } from '../../../common/money.ts';
import { formatLongDay } from '../../../common/dates.ts';
import { drawParagraph, drawTable, drawTotals } from './finance-pdf-blocks.ts';
import { block, drawHeader, drawParties, finish, oneLine, startDocument, type PdfParty } from './finance-pdf-page.ts';

// The credit note as an A4 PDF (decision 298), a pure renderer like the invoice's (invoice-pdf.ts).

const { BRAND, TEXT } = PDF_COLOURS;

export interface CreditNotePdf {
  number: string;
  issueDate: string;
  invoiceNumber: string;
  invoiceIssueDate: string;
  seller: PdfParty;
  buyer: PdfParty;
  projectName: string;
  reason: string;
  lines: Array<{ description: string; netKobo: bigint; vatKobo: bigint }>;
  netKobo: bigint;
  vatKobo: bigint;
  grossKobo: bigint;
}

/** A credit note: which invoice it credits and why, the lines credited, the amounts credited. */
export async function renderCreditNotePdf(input: CreditNotePdf): Promise<Buffer> {
  const number = oneLine(input.number);
  const invoice = oneLine(input.invoiceNumber);
  const seller = oneLine(input.seller.name);
  const { doc, done, left, width } = await startDocument({ title: `Credit note ${number}`, author: seller, subject: `Credit note ${number} on invoice ${invoice}`, date: input.issueDate });
  const invoiceDate = formatLongDay(input.invoiceIssueDate);
  drawHeader(doc, left, width, input.seller, 'CREDIT NOTE', number, [
    ['Issue date', formatLongDay(input.issueDate)],
    ['Invoice', invoice],
    ['Invoice date', invoiceDate],
  ]);
  drawParties(doc, left, width, 'Credit to', input.buyer, [['Project', oneLine(input.projectName) || '-']]);
  doc.font(BOLD_FONT).fontSize(11).fillColor(BRAND).text(`Credits invoice ${invoice} issued ${invoiceDate}.`, left, doc.y, { width });
  doc.moveDown(0.9);

  drawParagraph(doc, left, width, 'Reason', block(input.reason) || '-');

  drawTable(
    doc,
    left,
    width,
    [
      { header: 'Description', align: 'left', wrap: true },
      { header: 'Net credited', width: 100, align: 'right' },
      { header: 'VAT credited', width: 100, align: 'right' },
    ],
    input.lines.map((line) => [block(line.description) || '-', formatKobo(line.netKobo), formatKobo(line.vatKobo)]),
    `Credit note ${number} (continued)`,
  );
  drawTotals(doc, left, width, [
    ['Net credited', formatKobo(input.netKobo)],
    ['VAT credited', formatKobo(input.vatKobo)],
    ['Total credited', formatKobo(input.grossKobo)],
  ]);

  doc.font(BODY_FONT).fontSize(9.5);
  const closing = `This credit note reduces the amount payable on invoice ${invoice} by ${formatKobo(input.grossKobo)}, VAT included.`;
  keepTogether(doc, doc.heightOfString(closing, { width }));
  doc.fillColor(TEXT).text(closing, left, doc.y, { width });

  finish(doc, left, width, `${seller} · Credit note ${number} · Credits invoice ${invoice}`);
  return done;
}
