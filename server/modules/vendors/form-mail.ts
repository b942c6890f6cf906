import type { FastifyInstance } from 'fastify';
import type { VendorApplicationFields } from '../../../common/schemas/vendors.ts';

const FORWARD_TIMEOUT_MS = 30_000;

interface ForwardDocument {
  kind: 'certification' | 'company-profile';
  storageKey: string;
  originalName: string;
  mimeType: string;
}

async function readAll(app: FastifyInstance, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await app.storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Forwards an application to the form-mail service (FORMMAIL_URL) as the original site posted it:
 * every text field, each certification file under 'certifications', the profile under
 * 'companyProfile', the table template, no captcha and the subject line. The stored application is
 * the record; a failed forward is logged and does not fail the visitor's submission.
 */
export async function forwardToFormMail(
  app: FastifyInstance,
  application: { reference: string; fields: VendorApplicationFields; documents: ForwardDocument[] },
): Promise<{ ok: boolean; message?: string }> {
  const url = app.config.FORMMAIL_URL;
  if (!url) return { ok: false, message: 'not configured' };
  const form = new FormData();
  for (const [name, value] of Object.entries(application.fields)) form.append(name, value);
  for (const doc of application.documents) {
    const bytes = await readAll(app, doc.storageKey);
    form.append(doc.kind === 'company-profile' ? 'companyProfile' : 'certifications', new Blob([new Uint8Array(bytes)], { type: doc.mimeType }), doc.originalName);
  }
  // The form-mail service's control fields (FormSubmit's names): a table layout, no captcha page, the subject.
  form.append('_template', 'table');
  form.append('_captcha', 'false');
  form.append('_subject', `New Vendor Registration: ${application.fields.companyName}`);
  try {
    const response = await fetch(url, {
      method: 'POST',
      body: form,
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as { success?: unknown; message?: unknown };
    const ok = response.ok && (body.success === true || body.success === 'true');
    const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
    if (!ok) app.log.warn({ reference: application.reference, status: response.status, message }, 'form-mail service refused the vendor application');
    return { ok, message };
  } catch (err) {
    app.log.warn({ err, reference: application.reference }, 'forwarding the vendor application to the form-mail service failed');
    return { ok: false, message: (err as Error).message };
  }
}
