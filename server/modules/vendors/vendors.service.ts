import { randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../../common/errors.ts';
import {
  VENDOR_LIST_PAGE_SIZE,
  VENDOR_STATUS_LABELS,
  VENDOR_STATUS_NEXT,
  VENDOR_TEXT_FIELDS,
  type VendorApplicationDetail,
  type VendorApplicationFields,
  type VendorCopyState,
  type VendorApplicationSummary,
  type VendorStatus,
} from '../../../common/schemas/vendors.ts';
import { vendorApplications, vendorDocuments, vendorStatusChanges } from '../../db/schema/vendors.ts';
import { deliverQueuedMail, mailConfigured, mailWasSent, queueMail } from '../../mail/mailer.ts';
import { applicantAcknowledgement, staffNotification } from './vendors.mail.ts';
import { addressLimitKey, hitRateLimit, type RateLimitRule } from '../../lib/rate-limit.ts';
import { mayMailTypedAddress } from '../../mail/typed-address.ts';

/**
 * Acknowledgements are mail to an address a stranger typed (decisions 116 and 190): at most
 * TYPED_ADDRESS_MAILS_PER_DAY per recipient mailbox a day and this many per sending address an hour;
 * past either, the application is still stored and staff are told, only the acknowledgement is not sent.
 */
export const VENDOR_ACK_PER_SENDER: RateLimitRule = { bucket: 'vendor-ack-from', limit: 3, windowMs: 60 * 60_000 };
import type { StoredVendorDocument } from './vendor-upload.ts';
import { todayIso } from '../../../common/dates.ts';

// Crockford's base32 without look-alikes (no I, L, O, U): references are read over the phone.
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function newReference(now: Date): string {
  const day = todayIso(now).replace(/-/g, ''); // the Lagos day, as staff date the application
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `VR-${day}-${suffix}`;
}

/**
 * Stores an application with its (already written) documents, its first status entry and its two
 * mails in one transaction, then sends the mails. Either all of it is stored or none of it.
 */
export async function createVendorApplication(
  app: FastifyInstance,
  input: { id: string; fields: VendorApplicationFields; documents: StoredVendorDocument[]; ip: string },
): Promise<{ id: string; reference: string; copy: VendorCopyState }> {
  const now = app.clock.now();
  const reference = newReference(now);
  // Both counted, whichever refuses (one atomic step each: decision 110).
  const [toRecipient, fromSender] = await Promise.all([
    mayMailTypedAddress(app, 'vendor-application-ack', input.fields.companyEmail),
    hitRateLimit(app, VENDOR_ACK_PER_SENDER, addressLimitKey(input.ip)),
  ]);
  const acknowledge = toRecipient && fromSender.allowed;
  if (!acknowledge) app.log.info({ reference }, 'vendor acknowledgement not sent: its rate limit is reached');
  const mailIds = await app.db.transaction(async (tx) => {
    await tx.insert(vendorApplications).values({ id: input.id, reference, ...input.fields, ip: input.ip, createdAt: now, updatedAt: now });
    if (input.documents.length) {
      await tx.insert(vendorDocuments).values(
        input.documents.map((d) => ({
          id: d.id,
          applicationId: input.id,
          kind: d.kind,
          storageKey: d.storageKey,
          originalName: d.originalName,
          mimeType: d.mimeType,
          size: d.size,
          position: d.position,
          createdAt: now,
        })),
      );
    }
    await tx.insert(vendorStatusChanges).values({ applicationId: input.id, fromStatus: null, toStatus: 'new', changedAt: now, changedByName: 'Website form' });
    const forMail = { id: input.id, reference, fields: input.fields, documents: input.documents };
    const ids = [await queueMail(tx, app, staffNotification(app, forMail))];
    if (acknowledge) ids.push(await queueMail(tx, app, applicantAcknowledgement(app, forMail)));
    return ids;
  });
  try {
    await deliverQueuedMail(app, mailIds);
  } catch (err) {
    // Stored and queued: the retries deliver them; the visitor's submission succeeded.
    app.log.error({ err }, 'could not deliver vendor application mails now');
  }
  const ackId = acknowledge ? mailIds[1] : null;
  // Past the copies' rate limit the answer stays as if sent (decision 116: the limit reveals nothing).
  const copy: VendorCopyState = !mailConfigured(app) ? 'none' : !ackId || (await mailWasSent(app, ackId)) ? 'sent' : 'later';
  return { id: input.id, reference, copy };
}

/** The documents of an application, in the order they were sent (for the form-mail forward). */
export async function listVendorDocuments(app: FastifyInstance, applicationId: string) {
  return app.db.select().from(vendorDocuments).where(eq(vendorDocuments.applicationId, applicationId)).orderBy(asc(vendorDocuments.position));
}

/** Staff's list: newest first, optionally one status, a page at a time. */
export async function listVendorApplications(
  app: FastifyInstance,
  query: { status?: VendorStatus; page: number },
): Promise<{ applications: VendorApplicationSummary[]; total: number }> {
  const where = query.status ? eq(vendorApplications.status, query.status) : undefined;
  // Qualified by hand: inside a sub-select Drizzle writes bare column names, and a bare "id" would be the document's.
  const documentCount = sql<number>`(select count(*)::int from "vendor_documents" d where d."application_id" = "vendor_applications"."id")`;
  const rows = await app.db
    .select({
      id: vendorApplications.id,
      reference: vendorApplications.reference,
      companyName: vendorApplications.companyName,
      companyEmail: vendorApplications.companyEmail,
      contactPersonName: vendorApplications.contactPersonName,
      businessType: vendorApplications.businessType,
      status: vendorApplications.status,
      createdAt: vendorApplications.createdAt,
      documentCount,
    })
    .from(vendorApplications)
    .where(where)
    .orderBy(desc(vendorApplications.createdAt), desc(vendorApplications.id))
    .limit(VENDOR_LIST_PAGE_SIZE)
    .offset((query.page - 1) * VENDOR_LIST_PAGE_SIZE);
  const [{ total }] = await app.db.select({ total: count() }).from(vendorApplications).where(where);
  return {
    applications: rows.map(({ id, createdAt, ...r }) => ({ _id: id, ...r, createdAt: createdAt.toISOString() })),
    total,
  };
}

/** One application with every field, its documents and its status history; null when there is none. */
export async function getVendorApplication(app: FastifyInstance, id: string): Promise<VendorApplicationDetail | null> {
  const [row] = await app.db.select().from(vendorApplications).where(eq(vendorApplications.id, id));
  if (!row) return null;
  const documents = await listVendorDocuments(app, id);
  const history = await app.db
    .select()
    .from(vendorStatusChanges)
    .where(eq(vendorStatusChanges.applicationId, id))
    .orderBy(desc(vendorStatusChanges.changedAt), desc(vendorStatusChanges.id));
  const fields = Object.fromEntries(VENDOR_TEXT_FIELDS.map((k) => [k, row[k]])) as VendorApplicationFields;
  return {
    _id: row.id,
    reference: row.reference,
    companyName: row.companyName,
    companyEmail: row.companyEmail,
    contactPersonName: row.contactPersonName,
    businessType: row.businessType,
    status: row.status,
    documentCount: documents.length,
    createdAt: row.createdAt.toISOString(),
    fields,
    documents: documents.map((d) => ({ _id: d.id, kind: d.kind, name: d.originalName, mimeType: d.mimeType, size: d.size })),
    history: history.map((h) => ({
      _id: h.id,
      fromStatus: h.fromStatus,
      toStatus: h.toStatus,
      note: h.note,
      changedBy: h.changedBy || h.changedByName ? { _id: h.changedBy, name: h.changedByName ?? 'Unknown' } : null,
      changedAt: h.changedAt.toISOString(),
    })),
    nextStatuses: [...VENDOR_STATUS_NEXT[row.status]],
  };
}

/**
 * Moves an application along the pipeline (new → under review → approved or rejected), recording
 * who did it, when, and the note. A move the pipeline does not allow is refused with 409.
 */
export async function changeVendorStatus(
  app: FastifyInstance,
  id: string,
  change: { status: VendorStatus; note: string },
  by: { _id: string; name: string },
): Promise<VendorApplicationDetail> {
  const now = app.clock.now();
  await app.db.transaction(async (tx) => {
    // Locked, so two staff members clicking at once cannot both move it from the same status.
    const [row] = await tx
      .select({ status: vendorApplications.status })
      .from(vendorApplications)
      .where(eq(vendorApplications.id, id))
      .for('update');
    if (!row) throw notFound('Vendor application not found');
    if (!VENDOR_STATUS_NEXT[row.status].includes(change.status)) {
      throw conflict(
        `An application that is ${VENDOR_STATUS_LABELS[row.status].toLowerCase()} cannot be moved to ${VENDOR_STATUS_LABELS[change.status].toLowerCase()}`,
      );
    }
    await tx.update(vendorApplications).set({ status: change.status, updatedAt: now }).where(eq(vendorApplications.id, id));
    await tx.insert(vendorStatusChanges).values({
      applicationId: id,
      fromStatus: row.status,
      toStatus: change.status,
      note: change.note,
      changedBy: by._id,
      changedByName: by.name,
      changedAt: now,
    });
  });
  return (await getVendorApplication(app, id))!;
}

/** One document of one application (both ids must match), or null. */
export async function getVendorDocument(app: FastifyInstance, applicationId: string, documentId: string) {
  const [doc] = await app.db
    .select()
    .from(vendorDocuments)
    .where(and(eq(vendorDocuments.applicationId, applicationId), eq(vendorDocuments.id, documentId)));
  return doc ?? null;
}

/** How many applications nobody has looked at yet (status new). */
export async function countNewVendorApplications(app: FastifyInstance): Promise<number> {
  const [{ n }] = await app.db.select({ n: count() }).from(vendorApplications).where(eq(vendorApplications.status, 'new'));
  return n;
}
