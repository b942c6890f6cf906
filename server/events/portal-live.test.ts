import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayHearOf, PORTAL_CHANGE_TYPES, type PortalChange, type PortalChangeType } from '../../common/schemas/portal-events.ts';
import { openEventStream, type EventStream } from '../../tests/helpers/event-stream.ts';
import { actor, createProjectVia, multipart, type Actor } from '../../tests/helpers/portal.ts';
import type { TestApp } from '../../tests/helpers/test-app.ts';
import { appWithAdmin } from '../../tests/helpers/actors.ts';
import { samplePdf } from '../../tests/helpers/sample-files.ts';
import { draftInvoice, putPlan, recordTransfer, saveFinanceSettings } from '../../tests/helpers/finance.ts';

/**
 * Who hears of each change on the live stream: the authorisation table of the events. It is
 * exactly who may read the changed data: staff everything; the owning client its own projects'
 * changes (never a client's pipeline status, which only staff may read); another client nothing.
 */
const AUDIENCE: Record<PortalChangeType, { staff: boolean; owner: boolean; otherClient: boolean }> = {
  'project.created': { staff: true, owner: true, otherClient: false },
  'project.status': { staff: true, owner: true, otherClient: false },
  'project.updated': { staff: true, owner: true, otherClient: false },
  'timeline.created': { staff: true, owner: true, otherClient: false },
  'timeline.updated': { staff: true, owner: true, otherClient: false },
  'report.created': { staff: true, owner: true, otherClient: false },
  'report.updated': { staff: true, owner: true, otherClient: false },
  'client.status': { staff: true, owner: false, otherClient: false },
  'client.updated': { staff: true, owner: false, otherClient: false },
  'approval.requested': { staff: true, owner: true, otherClient: false },
  'approval.decided': { staff: true, owner: true, otherClient: false },
  'approval.updated': { staff: true, owner: true, otherClient: false },
  'document.created': { staff: true, owner: true, otherClient: false },
  'document.updated': { staff: true, owner: true, otherClient: false },
  // A document the client cannot see (decision 292).
  'document.internal': { staff: true, owner: false, otherClient: false },
  // Change orders (decision 294): a draft and its edits are staff's until sent.
  'change-order.created': { staff: true, owner: false, otherClient: false },
  'change-order.updated': { staff: true, owner: false, otherClient: false },
  'change-order.sent': { staff: true, owner: true, otherClient: false },
  'change-order.withdrawn': { staff: true, owner: true, otherClient: false },
  'change-order.decided': { staff: true, owner: true, otherClient: false },
  // The payment plan (decision 298): drafts are staff's; the rest reaches the client's people who see invoices (the founder is its admin).
  'invoice.draft': { staff: true, owner: false, otherClient: false },
  'invoice.issued': { staff: true, owner: true, otherClient: false },
  'invoice.updated': { staff: true, owner: true, otherClient: false },
  'finance.plan': { staff: true, owner: true, otherClient: false },
};

let t: TestApp;
let admin: Actor;
let owner: Actor;
let otherClient: Actor;
let project: { _id: string; code: string; name: string };
let base: string;

beforeAll(async () => {
  ({ t, admin } = await appWithAdmin());
  owner = await actor(t, 'client', 'Adaeze Owner');
  otherClient = await actor(t, 'client', 'Other Client');
  project = await createProjectVia(t, admin, owner.id, { name: 'Onne Jetty Rehabilitation' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

const as = (who: Actor) => ({ headers: who.headers });
const CHANGE_ORDER = { title: 'Extra piles', description: 'Four more piles at the quay head', cost: '4,500,000.50', scheduleDays: 21 };

/** A document with one PDF version on the project, shown to the client or not; answers its id. */
async function uploadDocument(visibleToClient: boolean): Promise<string> {
  const body = await multipart({ title: 'Site plan', category: 'drawing', visibleToClient: String(visibleToClient) }, [
    { field: 'file', name: 'plan.pdf', type: 'application/pdf', data: samplePdf() },
  ]);
  const res = await t.app.inject({ method: 'POST', url: `/api/projects/${project._id}/documents`, headers: { ...admin.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(201);
  return res.json().document._id as string;
}

/** Each change made through the API as staff, answering the event it must publish. */
const makeChange: Record<PortalChangeType, () => Promise<PortalChange>> = {
  async 'project.created'() {
    const created = await createProjectVia(t, admin, owner.id, { name: 'Second Site' });
    return { type: 'project.created', clientId: owner.id, projectId: created._id, id: created._id };
  },
  async 'project.status'() {
    const res = await t.app.inject({ method: 'PUT', url: `/api/projects/${project._id}/status`, ...as(admin), payload: { status: 'in-progress' } });
    expect(res.statusCode).toBe(200);
    return { type: 'project.status', clientId: owner.id, projectId: project._id, id: project._id };
  },
  async 'project.updated'() {
    const res = await t.app.inject({ method: 'PATCH', url: `/api/projects/${project._id}`, ...as(admin), payload: { description: 'Corrected scope' } });
    expect(res.statusCode).toBe(200);
    return { type: 'project.updated', clientId: owner.id, projectId: project._id, id: project._id };
  },
  async 'timeline.created'() {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/gantt-charts',
      ...as(admin),
      payload: { projectId: project._id, projectTitle: 'Plan', tasks: [{ task: 'Survey', month: '2026-12' }] },
    });
    expect(res.statusCode).toBe(201);
    return { type: 'timeline.created', clientId: owner.id, projectId: project._id, id: res.json().timeline._id };
  },
  async 'timeline.updated'() {
    const created = await t.app.inject({ method: 'POST', url: '/api/gantt-charts', ...as(admin), payload: { projectId: project._id, projectTitle: 'Plan B', tasks: [] } });
    const id = created.json().timeline._id as string;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/gantt-charts/${id}`,
      ...as(admin),
      payload: { projectTitle: 'Plan B', tasks: [{ task: 'Piling', month: '2027-01', status: 'in-progress' }] },
    });
    expect(res.statusCode).toBe(200);
    return { type: 'timeline.updated', clientId: owner.id, projectId: project._id, id };
  },
  async 'report.created'() {
    const body = await multipart({ date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Piling', progress: 'Half done' });
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    return { type: 'report.created', clientId: owner.id, projectId: project._id, id: res.json().report._id };
  },
  async 'report.updated'() {
    const created = await makeChange['report.created']();
    const body = await multipart({ progress: 'Two thirds done' });
    const res = await t.app.inject({ method: 'PATCH', url: `/api/reports/${created.id}`, headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    return { type: 'report.updated', clientId: owner.id, projectId: project._id, id: created.id };
  },
  async 'approval.requested'() {
    const report = await makeChange['report.created']();
    const res = await t.app.inject({ method: 'POST', url: '/api/approvals', ...as(admin), payload: { subject: { type: 'report', reportId: report.id }, dueOn: '2099-01-01' } });
    expect(res.statusCode).toBe(201);
    return { type: 'approval.requested', clientId: owner.id, projectId: project._id, id: res.json().approval._id };
  },
  async 'approval.decided'() {
    const asked = await makeChange['approval.requested']();
    const res = await t.app.inject({ method: 'POST', url: `/api/approvals/${asked.id}/decision`, ...as(owner), payload: { decision: 'approved' } });
    expect(res.statusCode).toBe(200);
    return { type: 'approval.decided', clientId: owner.id, projectId: project._id, id: asked.id };
  },
  async 'approval.updated'() {
    const asked = await makeChange['approval.requested']();
    const res = await t.app.inject({ method: 'POST', url: `/api/approvals/${asked.id}/close`, ...as(admin) });
    expect(res.statusCode).toBe(200);
    return { type: 'approval.updated', clientId: owner.id, projectId: project._id, id: asked.id };
  },
  async 'document.created'() {
    const created = await uploadDocument(true);
    return { type: 'document.created', clientId: owner.id, projectId: project._id, id: created };
  },
  async 'document.updated'() {
    const id = await uploadDocument(true);
    const res = await t.app.inject({ method: 'PATCH', url: `/api/projects/${project._id}/documents/${id}`, ...as(admin), payload: { title: 'Drainage layout' } });
    expect(res.statusCode).toBe(200);
    return { type: 'document.updated', clientId: owner.id, projectId: project._id, id };
  },
  async 'document.internal'() {
    const created = await uploadDocument(false);
    return { type: 'document.internal', clientId: owner.id, projectId: project._id, id: created };
  },
  async 'change-order.created'() {
    const res = await t.app.inject({ method: 'POST', url: `/api/change-orders/project/${project._id}`, ...as(admin), payload: CHANGE_ORDER });
    expect(res.statusCode).toBe(201);
    return { type: 'change-order.created', clientId: owner.id, projectId: project._id, id: res.json().changeOrder._id };
  },
  async 'change-order.updated'() {
    const created = await makeChange['change-order.created']();
    const res = await t.app.inject({ method: 'PATCH', url: `/api/change-orders/${created.id}`, ...as(admin), payload: { title: 'Deeper piles' } });
    expect(res.statusCode).toBe(200);
    return { type: 'change-order.updated', clientId: owner.id, projectId: project._id, id: created.id };
  },
  async 'change-order.sent'() {
    const created = await makeChange['change-order.created']();
    const res = await t.app.inject({ method: 'POST', url: `/api/change-orders/${created.id}/send`, ...as(admin) });
    expect(res.statusCode).toBe(200);
    return { type: 'change-order.sent', clientId: owner.id, projectId: project._id, id: created.id };
  },
  async 'change-order.withdrawn'() {
    const sent = await makeChange['change-order.sent']();
    const res = await t.app.inject({ method: 'POST', url: `/api/change-orders/${sent.id}/withdraw`, ...as(admin) });
    expect(res.statusCode).toBe(200);
    return { type: 'change-order.withdrawn', clientId: owner.id, projectId: project._id, id: sent.id };
  },
  async 'change-order.decided'() {
    const sent = await makeChange['change-order.sent']();
    // The client's founder is its admin member, who may decide.
    const res = await t.app.inject({ method: 'POST', url: `/api/change-orders/${sent.id}/decision`, ...as(owner), payload: { decision: 'decline', comment: 'Not now' } });
    expect(res.statusCode).toBe(200);
    return { type: 'change-order.decided', clientId: owner.id, projectId: project._id, id: sent.id };
  },
  async 'invoice.draft'() {
    await saveFinanceSettings(t, admin.headers);
    const invoice = await draftInvoice(t, admin.headers, project._id);
    return { type: 'invoice.draft', clientId: owner.id, projectId: project._id, id: invoice._id };
  },
  async 'invoice.issued'() {
    await saveFinanceSettings(t, admin.headers);
    const invoice = await draftInvoice(t, admin.headers, project._id);
    const res = await t.app.inject({ method: 'POST', url: `/api/invoices/${invoice._id}/issue`, ...as(admin) });
    expect(res.statusCode).toBe(200);
    return { type: 'invoice.issued', clientId: owner.id, projectId: project._id, id: invoice._id };
  },
  async 'invoice.updated'() {
    const issued = await makeChange['invoice.issued']();
    await recordTransfer(t, admin.headers, issued.id, '10.00');
    return { type: 'invoice.updated', clientId: owner.id, projectId: project._id, id: issued.id };
  },
  async 'finance.plan'() {
    await putPlan(t, admin.headers, project._id, [{ name: 'Deposit', share: '20' }]);
    return { type: 'finance.plan', clientId: owner.id, projectId: project._id, id: project._id };
  },
  async 'client.updated'() {
    const res = await t.app.inject({ method: 'PATCH', url: `/api/users/clients/${owner.id}`, ...as(admin), payload: { name: 'Adaeze Owner-Eze' } });
    expect(res.statusCode).toBe(200);
    return { type: 'client.updated', clientId: owner.id, projectId: null, id: owner.id };
  },
  async 'client.status'() {
    const res = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${owner.id}/status`, ...as(admin), payload: { status: 'in-progress' } });
    expect(res.statusCode).toBe(200);
    return { type: 'client.status', clientId: owner.id, projectId: null, id: owner.id };
  },
};

describe('live changes on the stream', () => {
  let streams: { staff: EventStream; owner: EventStream; otherClient: EventStream };

  beforeAll(async () => {
    streams = {
      staff: await openEventStream(base, admin.headers.cookie),
      owner: await openEventStream(base, owner.headers.cookie),
      otherClient: await openEventStream(base, otherClient.headers.cookie),
    };
    for (const s of Object.values(streams)) await s.waitFor((e) => e.event === 'ready');
  });
  afterAll(async () => {
    for (const s of Object.values(streams ?? {})) await s.close();
  });

  it('has an audience rule for every kind of change, the same one the stream applies', () => {
    expect(Object.keys(AUDIENCE).sort()).toEqual([...PORTAL_CHANGE_TYPES].sort());
    for (const type of PORTAL_CHANGE_TYPES) {
      const change: PortalChange = { type, clientId: owner.id, projectId: project._id, id: 'x' };
      expect(mayHearOf({ _id: admin.id, role: 'admin' }, change)).toBe(AUDIENCE[type].staff);
      expect(mayHearOf({ _id: owner.id, role: 'client', memberRole: 'admin' }, change)).toBe(AUDIENCE[type].owner);
      // A plain member of the same client hears the same, less the payment plan (member permission finance.read).
      const plain = mayHearOf({ _id: 'member', role: 'client', organisationId: owner.id, memberRole: 'member' }, change);
      expect(plain).toBe(AUDIENCE[type].owner && !['invoice.issued', 'invoice.updated', 'finance.plan'].includes(type));
      expect(mayHearOf({ _id: otherClient.id, role: 'client' }, change)).toBe(AUDIENCE[type].otherClient);
    }
  });

  for (const type of PORTAL_CHANGE_TYPES) {
    it(`sends ${type} naming what changed, to exactly those who may read it`, async () => {
      const expected = await makeChange[type]();
      const same = (e: { event: string; data: unknown }) => e.event === 'change' && JSON.stringify(e.data) === JSON.stringify(expected);
      // Staff hear of everything; the change is on their stream with its ids.
      expect((await streams.staff.waitFor(same)).data).toEqual(expected);
      if (AUDIENCE[type].owner) await streams.owner.waitFor(same);
      // A marker event that everyone may hear, sent after the change: once it arrived, the change would have too.
      const marker = await makeChange['timeline.created']();
      const isMarker = (e: { event: string; data: unknown }) => e.event === 'change' && (e.data as PortalChange).id === marker.id;
      await streams.owner.waitFor(isMarker);
      await streams.staff.waitFor(isMarker);
      if (!AUDIENCE[type].owner) expect(streams.owner.events.some(same)).toBe(false);
      // The other client's stream is open (it got 'ready') and hears nothing of this client's projects.
      expect(streams.otherClient.events.filter((e) => e.event === 'change')).toEqual([]);
    });
  }

  it("tells a client about its own project's changes made through the API, and nothing of another client's", async () => {
    const foreign = await createProjectVia(t, admin, otherClient.id, { name: 'Foreign Works' });
    await streams.otherClient.waitFor((e) => e.event === 'change' && (e.data as PortalChange).id === foreign._id);
    await streams.staff.waitFor((e) => e.event === 'change' && (e.data as PortalChange).id === foreign._id);
    const marker = await makeChange['project.status']();
    await streams.owner.waitFor((e) => e.event === 'change' && JSON.stringify(e.data) === JSON.stringify(marker));
    expect(streams.owner.events.some((e) => e.event === 'change' && (e.data as PortalChange).clientId !== owner.id)).toBe(false);
  });

  it('publishes nothing when the change is refused', async () => {
    // Start after a change of its own has arrived: events come in commit order, so an earlier test's
    // event still on its way (the same project.status as the marker below) cannot land in between.
    const sync = await makeChange['timeline.created']();
    await streams.staff.waitFor((e) => e.event === 'change' && (e.data as PortalChange).id === sync.id);
    const before = streams.staff.events.length;
    const res = await t.app.inject({ method: 'PUT', url: '/api/projects/00000000-0000-4000-8000-000000000000/status', ...as(admin), payload: { status: 'completed' } });
    expect(res.statusCode).toBe(404);
    const missingClient = await t.app.inject({ method: 'PUT', url: '/api/users/clients/00000000-0000-4000-8000-000000000000/status', ...as(admin), payload: { status: 'completed' } });
    expect(missingClient.statusCode).toBe(404);
    // A change that did happen afterwards arrives; nothing came before it.
    const marker = await makeChange['project.status']();
    // Earlier tests published the same project.status: only an event after `before` is this one.
    const isNew = (e: (typeof streams.staff.events)[number]) => streams.staff.events.indexOf(e) >= before;
    await streams.staff.waitFor((e) => isNew(e) && e.event === 'change' && JSON.stringify(e.data) === JSON.stringify(marker));
    const between = streams.staff.events.slice(before).filter((e) => e.event === 'change');
    expect(between).toEqual([{ event: 'change', data: marker }]);
  });
});
