import { mkdirSync, rmSync } from 'node:fs';
import { E2E_MAIL_DIR, E2E_SMTP_PORT } from '../../playwright.config.ts';
import { startSmtpServer } from '../helpers/smtp-server.ts';

/**
 * The browser tests' mail server: the e2e web server sends to it (SMTP_URL in playwright.config.ts)
 * and it writes every mail to E2E_MAIL_DIR, where the tests (other processes) read them.
 */
export default async function smtpGlobalSetup() {
  rmSync(E2E_MAIL_DIR, { recursive: true, force: true });
  mkdirSync(E2E_MAIL_DIR, { recursive: true });
  const smtp = await startSmtpServer({ port: E2E_SMTP_PORT, mailDir: E2E_MAIL_DIR });
  return async () => {
    await smtp.close();
  };
}
