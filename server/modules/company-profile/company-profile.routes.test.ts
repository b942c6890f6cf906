import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { company } from '../../../common/content/company.ts';
import { services } from '../../../common/content/services.ts';
import { team } from '../../../common/content/team.ts';
import { certificates } from '../../../common/content/certificates.ts';

describe('GET /api/company-profile.pdf', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('downloads a well-formed PDF to anyone, signed in or not', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company-profile.pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="company-profile.pdf"');
    const pdf = res.rawPayload;
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    // The cross-reference table is where startxref says it is, and lists every object.
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const [, , count] = /xref\s+(\d+)\s+(\d+)/.exec(text.slice(startxref)) ?? [];
    expect(Number(count)).toBeGreaterThan(10);
    expect((text.match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it('is built from the site content: company, services, team and certifications', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company-profile.pdf' });
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(company.name);
    expect(text).toContain(company.registrationNumber);
    expect(text).toContain('Minimum owned equipment: 45%');
    expect(text).toContain('Nigerian shareholding: 100%');
    for (const s of services) expect(text).toContain(s.title);
    for (const m of team) expect(text).toContain(m.name);
    for (const c of certificates) expect(text).toContain(c.title);
  });
});
