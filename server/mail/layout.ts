import { escapeHtml } from './mailer.ts';
import { safeHref } from '../../common/schemas/link-check.ts';

/** What a mail says, independent of its two renderings (plain text and simple HTML). */
export interface MailContent {
  subject: string;
  /** First line, such as 'Hello Ada,'. */
  greeting?: string;
  paragraphs: string[];
  /** Label and value pairs shown as a table (values may span several lines). */
  fields?: [label: string, value: string][];
  /** One button-like link. */
  action?: { label: string; url: string };
  /** Small print at the end (sender, why you got this, how to stop it). */
  footer?: string[];
  /** Links in the footer, such as the unsubscribe link. */
  footerLinks?: { label: string; url: string }[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function safeUrl(url: string): string {
  // Only web links ever go into a mail (decision 300): a javascript: or data: URL from anywhere is refused.
  const href = safeHref(url);
  if (href === undefined) throw new Error('Mail links must be http(s) URLs');
  return href;
}

const paragraphHtml = (text: string) =>
  `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;

/**
 * Renders mail content as plain text and as simple HTML. Every piece of content is escaped, so text
 * a visitor typed (a company name with <script>) shows as text in staff's mail client.
 */
export function renderMail(content: MailContent): RenderedMail {
  // Subjects are single lines: a newline in visitor text must not become a new header.
  const subject = content.subject.replace(/[\r\n]+/g, ' ').slice(0, 250);
  const text: string[] = [];
  const html: string[] = [];
  if (content.greeting) {
    text.push(content.greeting, '');
    html.push(paragraphHtml(content.greeting));
  }
  for (const p of content.paragraphs) {
    text.push(p, '');
    html.push(paragraphHtml(p));
  }
  if (content.fields?.length) {
    const width = Math.max(...content.fields.map(([label]) => label.length));
    for (const [label, value] of content.fields) {
      const lines = (value || '-').split(/\r?\n/);
      text.push(`${`${label}:`.padEnd(width + 2)}${lines[0]}`, ...lines.slice(1).map((l) => `${' '.repeat(width + 2)}${l}`));
    }
    text.push('');
    html.push(
      '<table role="presentation" cellpadding="6" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px;width:100%">',
      ...content.fields.map(
        ([label, value]) =>
          `<tr><th align="left" valign="top" style="border-bottom:1px solid #e2e8f0;padding:6px 12px 6px 0;white-space:nowrap">${escapeHtml(label)}</th>` +
          `<td style="border-bottom:1px solid #e2e8f0;padding:6px 0">${escapeHtml(value || '-').replace(/\r?\n/g, '<br>')}</td></tr>`,
      ),
      '</table>',
    );
  }
  if (content.action) {
    const url = safeUrl(content.action.url);
    text.push(`${content.action.label}:`, url, '');
    html.push(
      `<p style="margin:0 0 16px"><a href="${escapeHtml(url)}" style="display:inline-block;background:#0b4f8a;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(content.action.label)}</a></p>`,
      `<p style="margin:0 0 16px;font-size:13px;color:#475569">If the button does not work, copy this address into your browser:<br>${escapeHtml(url)}</p>`,
    );
  }
  if (content.footer?.length || content.footerLinks?.length) {
    text.push('--');
    for (const line of content.footer ?? []) text.push(line);
    for (const link of content.footerLinks ?? []) text.push(`${link.label}: ${safeUrl(link.url)}`);
    html.push(
      '<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0 12px">',
      ...(content.footer ?? []).map((line) => `<p style="margin:0 0 6px;font-size:12px;color:#475569">${escapeHtml(line)}</p>`),
      ...(content.footerLinks ?? []).map(
        (link) => `<p style="margin:0 0 6px;font-size:12px"><a href="${escapeHtml(safeUrl(link.url))}" style="color:#0b4f8a">${escapeHtml(link.label)}</a></p>`,
      ),
    );
  }
  return {
    subject,
    text: text.join('\n').trimEnd() + '\n',
    html: mailDocument(subject, html.join('')),
  };
}

/**
 * A mail's HTML as a whole, valid document (doctype, language, title) around `bodyHtml` (already
 * escaped). Every mail's HTML is one of these; the HTML validity test checks them (issue 21).
 */
export function mailDocument(subject: string, bodyHtml: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;color:#0f172a">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:24px">` +
    bodyHtml +
    `</div></body></html>`
  );
}
