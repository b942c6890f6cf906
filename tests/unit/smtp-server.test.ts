import nodemailer from 'nodemailer';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailDir, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';

let smtp: TestSmtpServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-helper-'));
  smtp = await startSmtpServer({ mailDir: dir });
});
afterAll(async () => {
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('test SMTP server helper', () => {
  it('receives a mail over SMTP and decodes subject, text, html, headers and attachments', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    const longLink = `https://example.test/confirm?token=${'a'.repeat(120)}`;
    await transport.sendMail({
      from: 'Site <no-reply@example.test>',
      to: 'someone@example.test',
      subject: 'Ünïcode subject — with dash',
      text: `Hello Ada,\nconfirm here: ${longLink}\n`,
      html: `<p>Hello <b>Ada</b> &amp; co</p><a href="${longLink}">confirm</a>`,
      headers: { 'List-Unsubscribe': '<https://example.test/u>' },
      attachments: [{ filename: 'a.pdf', content: Buffer.from('%PDF-1.4 test') }],
    });
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes('someone@example.test'));
    expect(mail.subject).toBe('Ünïcode subject — with dash');
    expect(mail.text).toContain(longLink);
    expect(mail.html).toContain(`href="${longLink}"`);
    expect(mail.headers['list-unsubscribe']).toBe('<https://example.test/u>');
    expect(mail.attachments).toEqual([expect.objectContaining({ filename: 'a.pdf', content: Buffer.from('%PDF-1.4 test') })]);
    expect(readMailDir(dir).map((m) => m.subject)).toContain('Ünïcode subject — with dash');
  });

  it('refuses mails on demand so retries can be tested', async () => {
    smtp.failNext(1);
    const transport = nodemailer.createTransport(smtp.url);
    await expect(transport.sendMail({ from: 'a@example.test', to: 'b@example.test', subject: 'x', text: 'y' })).rejects.toThrow();
    await transport.sendMail({ from: 'a@example.test', to: 'b@example.test', subject: 'second', text: 'y' });
    await expect(smtp.waitForMail((m) => m.subject === 'second')).resolves.toMatchObject({ text: expect.stringContaining('y') });
  });

  it('rejects waiting when no matching mail arrives in time', async () => {
    await expect(smtp.waitForMail((m) => m.subject === 'never', 200)).rejects.toThrow(/No matching mail/);
  });
});
