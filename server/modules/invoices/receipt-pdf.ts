import { BODY_FONT, BOLD_FONT } from '../../lib/pdf-fonts.ts';
import { keepTogether, PDF_COLOURS } from '../../lib/pdf-layout.ts';
import { formatKobo } from '../../../common/money.ts';
import { formatLongDay } from '../../../common/dates.ts';
import { drawFacts, SHADE } from './finance-pdf-blocks.ts';
import { drawHeader, drawParties, finish, oneLine, oneLineText, startDocument, type PdfParty } from './finance-pdf-page.ts';

// The receipt of one payment as an A4 PDF (decision 298), a pure renderer like the invoice's (invoice-pdf.ts).

const { BRAND, MUTED } = PDF_COLOURS;

export interface ReceiptPdf {
  /** 'RCT-INV-2026-0001-1'. */
  receiptNumber: string;
  /** 'YYYY-MM-DD'. */
  receivedOn: string;
  amountKobo: bigint;
  /** Already a label: 'Bank transfer', 'Paystack (card, transfer or USSD)'. */
  method: string;
  /** The bank's or Paystack's reference; may be ''. */
  reference: string;
  invoiceNumber: string;
  invoiceGrossKobo: bigint;
  paidToDateKobo: bigint;
  outstandingKobo: bigint;
  seller: PdfParty;
  buyer: PdfParty;
  projectName: string;
}

/** A receipt for one payment: the amount received, how, against which invoice, and what is left to pay. */
export async function renderReceiptPdf(input: ReceiptPdf): Promise<Buffer> {
  const number = oneLine(input.receiptNumber);
  const invoice = oneLine(input.invoiceNumber);
  const seller = oneLine(input.seller.name);
  const { doc, done, left, width } = await startDocument({ title: `Receipt ${number}`, author: seller, subject: `Receipt ${number} for a payment on invoice ${invoice}`, date: input.receivedOn });
  const receivedOn = formatLongDay(input.receivedOn);
  drawHeader(doc, left, width, input.seller, 'RECEIPT', number, [
    ['Received on', receivedOn],
    ['Invoice', invoice],
  ]);
  drawParties(doc, left, width, 'Received from', input.buyer, [['Project', oneLine(input.projectName) || '-']]);

  // The amount, large, in a shaded band.
  const amount = formatKobo(input.amountKobo);
  const bandTop = doc.y;
  const bandHeight = 74;
  doc.rect(left, bandTop, width, bandHeight).fill(SHADE);
  doc.rect(left, bandTop, 3, bandHeight).fill(BRAND);
  doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text('Received with thanks', left + 16, bandTop + 14, { width: width - 32 });
  oneLineText(doc, amount, left + 16, bandTop + 32, width - 32, { size: 26, font: BOLD_FONT, color: BRAND, align: 'left' });
  doc.x = left;
  doc.y = bandTop + bandHeight + 18;

  const outstanding = input.outstandingKobo <= 0n ? 'Paid in full' : formatKobo(input.outstandingKobo);
  const facts: Array<[string, string, boolean?]> = [['Payment method', oneLine(input.method) || '-']];
  const reference = oneLine(input.reference);
  if (reference) facts.push(['Reference', reference]);
  facts.push(
    ['Against invoice', invoice, true],
    ['Invoice total', formatKobo(input.invoiceGrossKobo)],
    ['Paid to date, this payment included', formatKobo(input.paidToDateKobo)],
    ['Outstanding after this payment', outstanding, true],
  );
  drawFacts(doc, left, width, facts);

  doc.font(BODY_FONT).fontSize(8.5);
  const closing = `This receipt confirms that the amount above was received. It is not a tax invoice: the VAT is shown on invoice ${invoice}.`;
  keepTogether(doc, doc.heightOfString(closing, { width }));
  doc.fillColor(MUTED).text(closing, left, doc.y, { width });

  finish(doc, left, width, `${seller} · Receipt ${number} · Invoice ${invoice}`);
  return done;
}
