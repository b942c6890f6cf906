import { readdirSync } from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { VendorApplicationFields } from '../../common/schemas/vendors.ts';
import { mailOutbox } from '../../server/db/schema/mail.ts';
import { vendorApplications, vendorDocuments, vendorStatusChanges } from '../../server/db/schema/vendors.ts';
import { appWithSmtp } from './actors.ts';
import { formToken, multipartBody, type UploadFile } from './forms.ts';
import type { TestSmtpServer } from './smtp-server.ts';
import type { TestApp } from './test-app.ts';

/*
 * One set-up for the vendor registration route tests: an app that mails through a test SMTP server,
 * a complete application, and a way to submit one. `t` and `smtp` are live bindings, filled by the
 * hooks `setUpVendorApp()` registers.
 */

export const STAFF = 'procurement@example.test';
export const MB = 1024 * 1024;

export const VALID: VendorApplicationFields = {
  companyName: 'Acme <Pipes> & Valves',
  companyPhone: '+234 800 111 2222',
  companyAddress: '1 Wharf Road\nPort Harcourt',
  companyEmail: 'vendor@acme.example',
  website: 'https://acme.example',
  previousAddress: '',
  contactPersonName: 'Ngozi Okafor',
  contactPersonAddress: '',
  contactPersonEmail: 'ngozi@acme.example',
  contactPersonPhone: '+234 800 333 4444',
  businessType: 'Supplier',
  taxId: 'TIN-1234',
  registrationNumber: 'RC 123456',
  compliant: 'Yes',
  certifications: 'ISO 9001',
  experience: '10 years of pipe supply',
  references: 'Client A',
  bankDetails: 'Bank X, 0123456789',
};

let ipCounter = 1;
/** Each submission from its own address, so the rate limit only bites where a test wants it to. */
export const nextIp = () => `198.51.100.${ipCounter++ % 250}`;

interface SubmitOptions {
  ip?: string;
  /** null: send no token; undefined: a fresh token with the minimum fill time waited out. */
  token?: string | null;
  honeypot?: string;
}

export async function submit(t: TestApp, fields: Partial<Record<string, string>>, files: UploadFile[] = [], options: SubmitOptions = {}) {
  const token = options.token === undefined ? await formToken(t, 'vendor') : options.token;
  const guard: Record<string, string> = { homepageUrl: options.honeypot ?? '' };
  if (token !== null) guard.formToken = token;
  const body = await multipartBody({ ...guard, ...(fields as Record<string, string>) }, files);
  return t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: options.ip ?? nextIp() });
}

export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

export async function counts(t: TestApp) {
  const db = t.database.db;
  const [[a], [d], [s], [m]] = await Promise.all([
    db.select({ n: count() }).from(vendorApplications),
    db.select({ n: count() }).from(vendorDocuments),
    db.select({ n: count() }).from(vendorStatusChanges),
    db.select({ n: count() }).from(mailOutbox),
  ]);
  return { applications: a.n, documents: d.n, statusChanges: s.n, mails: m.n, files: filesUnder(t.uploadsDir).length };
}

export const cert = (name: string, content: Buffer): UploadFile => ({ field: 'certificationsFiles', name, content, type: 'application/pdf' });
export const profile = (name: string, content: Buffer): UploadFile => ({ field: 'companyProfile', name, content, type: 'application/pdf' });

export let smtp: TestSmtpServer;
export let t: TestApp;

export function setUpVendorApp() {
  beforeAll(async () => ({ t, smtp } = await appWithSmtp({ STAFF_EMAIL: STAFF })));
  afterAll(() => t?.close());
}
