import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VENDOR_TEXT_FIELDS, type VendorApplicationFields } from '../../../common/schemas/vendors.ts';
import { formToken, multipartBody, sampleFiles } from '../../../tests/helpers/forms.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';

const ORIGIN = 'http://localhost:3000';

const fieldsFor = (companyName: string): VendorApplicationFields => ({
  companyName,
  companyPhone: '+234 800 000 0000',
  companyAddress: 'Somewhere 1',
  companyEmail: `${companyName.toLowerCase().replace(/\W/g, '')}@vendors.example`,
  website: '',
  previousAddress: 'Old Road 2',
  contactPersonName: 'Chidi',
  contactPersonAddress: 'Contact Street 3',
  contactPersonEmail: 'chidi@vendors.example',
  contactPersonPhone: '+234 800 000 0001',
  businessType: 'Contractor',
  taxId: 'TIN-9',
  registrationNumber: 'RC 9',
  compliant: 'No',
  certifications: 'None yet',
  experience: 'Five years',
  references: 'Ref A',
  bankDetails: 'Bank Y 999',
});

let t: TestApp;
let admin: { cookie: string; token: string };
let adminUser: { id: string; name: string };
let client: { cookie: string; token: string };
const ids: Record<string, string> = {};
let pdf: Buffer;

async function register(companyName: string) {
  const body = await multipartBody({ formToken: await formToken(t, 'vendor'), homepageUrl: '', ...fieldsFor(companyName) }, [
    { field: 'certificationsFiles', name: 'cert.pdf', content: pdf, type: 'application/pdf' },
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: `192.0.2.${Object.keys(ids).length + 1}` });
  expect(res.statusCode).toBe(200);
  t.clock.advance(60_000);
}

// A fresh session per call: the tests move the clock by days, past an admin session's idle limit.
const asAdmin = async (method: 'GET' | 'PUT', url: string, payload?: object) => {
  admin = await signIn(t, adminUser, 'admin');
  return t.app.inject({ method, url, payload, headers: { cookie: admin.cookie, origin: ORIGIN } });
};

beforeAll(async () => {
  t = await createTestApp();
  pdf = sampleFiles.pdf(2345);
  adminUser = await createUser(t, { role: 'admin', name: 'Amaka Staff' });
  client = await signIn(t, await createUser(t, { role: 'client' }), 'client');
  for (const name of ['First Ltd', 'Second Ltd', 'Third Ltd']) await register(name);
  const list = (await asAdmin('GET', '/api/vendors/applications')).json();
  for (const a of list.applications) ids[a.companyName] = a._id;
});
afterAll(async () => t.close());

describe('staff review of vendor applications', () => {
  it('lists applications newest first with their document count', async () => {
    const res = await asAdmin('GET', '/api/vendors/applications');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.applications.map((a: { companyName: string }) => a.companyName)).toEqual(['Third Ltd', 'Second Ltd', 'First Ltd']);
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 50 });
    expect(body.applications[0]).toMatchObject({ status: 'new', documentCount: 1, reference: expect.stringMatching(/^VR-/) });
  });

  it('shows every field, the documents and the first history entry of one application', async () => {
    const res = await asAdmin('GET', `/api/vendors/applications/${ids['Second Ltd']}`);
    expect(res.statusCode).toBe(200);
    const a = res.json().application;
    expect(Object.keys(a.fields).sort()).toEqual([...VENDOR_TEXT_FIELDS].sort());
    expect(a.fields).toEqual(fieldsFor('Second Ltd'));
    expect(a.documents).toEqual([{ _id: expect.any(String), kind: 'certification', name: 'cert.pdf', mimeType: 'application/pdf', size: 2345 }]);
    expect(a.history).toEqual([
      { _id: expect.any(String), fromStatus: null, toStatus: 'new', note: '', changedBy: { _id: null, name: 'Website form' }, changedAt: expect.any(String) },
    ]);
    expect(a.nextStatuses).toEqual(['under-review']);
  });

  it('moves an application new → under review → approved, recording who, when and the note', async () => {
    const id = ids['First Ltd'];
    t.clock.set(new Date('2026-12-01T08:00:00Z'));
    const review = await asAdmin('PUT', `/api/vendors/applications/${id}/status`, { status: 'under-review', note: 'Checking the tax ID' });
    expect(review.statusCode).toBe(200);
    expect(review.json().application).toMatchObject({ status: 'under-review', nextStatuses: ['approved', 'rejected'] });
    t.clock.set(new Date('2026-12-02T09:30:00Z'));
    const approve = await asAdmin('PUT', `/api/vendors/applications/${id}/status`, { status: 'approved', note: 'All documents in order' });
    expect(approve.statusCode).toBe(200);
    const a = approve.json().application;
    expect(a.status).toBe('approved');
    expect(a.history.slice(0, 2)).toEqual([
      expect.objectContaining({
        fromStatus: 'under-review',
        toStatus: 'approved',
        note: 'All documents in order',
        changedBy: { _id: adminUser.id, name: 'Amaka Staff' },
        changedAt: '2026-12-02T09:30:00.000Z',
      }),
      expect.objectContaining({ fromStatus: 'new', toStatus: 'under-review', note: 'Checking the tax ID', changedAt: '2026-12-01T08:00:00.000Z' }),
    ]);
  });

  it('refuses a move the pipeline does not allow with 409', async () => {
    const res = await asAdmin('PUT', `/api/vendors/applications/${ids['Third Ltd']}/status`, { status: 'approved' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: 'An application that is new cannot be moved to approved' });
  });

  it('filters the list by status', async () => {
    const approved = (await asAdmin('GET', '/api/vendors/applications?status=approved')).json();
    expect(approved.applications.map((a: { companyName: string }) => a.companyName)).toEqual(['First Ltd']);
    const fresh = (await asAdmin('GET', '/api/vendors/applications?status=new')).json();
    expect(fresh.total).toBe(2);
    expect((await asAdmin('GET', '/api/vendors/applications?status=bogus')).statusCode).toBe(400);
  });

  it('lets staff download a document with its name, type and exact bytes', async () => {
    const a = (await asAdmin('GET', `/api/vendors/applications/${ids['Second Ltd']}`)).json().application;
    const res = await asAdmin('GET', `/api/vendors/applications/${a._id}/documents/${a.documents[0]._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="cert.pdf"; filename*=UTF-8''cert.pdf`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(pdf)).toBe(true);
  });

  it('answers 404 for a missing application, and for a document asked under another application', async () => {
    expect((await asAdmin('GET', '/api/vendors/applications/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const second = (await asAdmin('GET', `/api/vendors/applications/${ids['Second Ltd']}`)).json().application;
    const res = await asAdmin('GET', `/api/vendors/applications/${ids['Third Ltd']}/documents/${second.documents[0]._id}`);
    expect(res.statusCode).toBe(404);
    expect((await asAdmin('PUT', `/api/vendors/applications/00000000-0000-4000-8000-000000000000/status`, { status: 'under-review' })).statusCode).toBe(404);
  });

  it('keeps visitors and clients out of every review route', async () => {
    const a = (await asAdmin('GET', `/api/vendors/applications/${ids['Second Ltd']}`)).json().application;
    const routes: [string, string][] = [
      ['GET', '/api/vendors/applications'],
      ['GET', `/api/vendors/applications/${a._id}`],
      ['PUT', `/api/vendors/applications/${a._id}/status`],
      ['GET', `/api/vendors/applications/${a._id}/documents/${a.documents[0]._id}`],
      ['GET', '/api/submissions/counts'],
    ];
    for (const [method, url] of routes) {
      const anon = await t.app.inject({ method: method as 'GET', url, payload: method === 'PUT' ? { status: 'rejected' } : undefined });
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
      const asClient = await t.app.inject({
        method: method as 'GET',
        url,
        payload: method === 'PUT' ? { status: 'rejected' } : undefined,
        headers: { cookie: client.cookie, origin: ORIGIN },
      });
      expect(asClient.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('counts the applications nobody has looked at for the dashboard', async () => {
    const res = await asAdmin('GET', '/api/submissions/counts');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, newApplications: 2, unreadMessages: 0 });
  });
});
