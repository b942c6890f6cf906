import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import { formatDay } from '../../../common/dates.ts';
import { formatKobo } from '../../../common/money.ts';
import { changeOrderNumber, scheduleImpactLabel } from '../../../common/schemas/change-orders.ts';
import { changeOrders } from '../../db/schema/change-orders.ts';
import { renderDecisionCertificate } from '../../lib/decision-certificate.ts';
import { projects } from '../../db/schema/projects.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { publishedCompany } from '../site-content/published-company.ts';
import { attachmentRowsOf, CLIENT_SEES } from './change-orders-read.ts';

/**
 * A decided change order's one-page PDF certificate (the approvals' renderer, decision 293) for a
 * viewer who may see the project; 404 outside the viewer's scope and until it is decided. The
 * facts are the change order's own columns as recorded at the decision (no content hash is stored
 * for a change order, so the certificate carries none), and its attachments with each file's name,
 * size and SHA-256 (frozen once sent, decision 296).
 */
export async function changeOrderCertificate(app: FastifyInstance, viewer: ScopeViewer, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const [found] = await app.db
    .select({ row: changeOrders, projectName: projects.name, projectCode: projects.code })
    .from(changeOrders)
    .innerJoin(projects, eq(projects.id, changeOrders.projectId))
    .where(and(eq(changeOrders.id, id), projectScope(viewer), viewer.role === 'admin' ? undefined : CLIENT_SEES));
  if (!found) throw notFound('Change order not found');
  const { row } = found;
  if ((row.status !== 'approved' && row.status !== 'declined') || !row.decidedAt) throw notFound('This change order has no decision yet');
  const reference = changeOrderNumber(row.number);
  const moved = row.status === 'approved' && row.budgetBeforeKobo !== null && row.budgetAfterKobo !== null;
  // Frozen since sending (decision 296): the files listed are exactly those the client decided on.
  const files = (await attachmentRowsOf(app.db, [row.id])).map((f) => ({ name: f.fileName, size: f.sizeBytes, sha256: f.sha256 }));
  const pdf = await renderDecisionCertificate({
    issuer: publishedCompany(app).name,
    title: 'Change order certificate',
    subjectLines: [
      ['Project', found.projectCode ? `${found.projectName} (${found.projectCode})` : found.projectName],
      ['Change order', `${reference}: ${row.title}`],
      ['Cost impact', formatKobo(row.costKobo, { signed: true })],
      ['Schedule impact', scheduleImpactLabel(row.scheduleDays)],
      ...(moved
        ? ([
            ['Contract sum', `${formatKobo(row.budgetBeforeKobo!)} before, ${formatKobo(row.budgetAfterKobo!)} after`],
            ['End date', `${formatDay(row.endDateBefore)} before, ${formatDay(row.endDateAfter)} after`],
          ] as const)
        : []),
      ['Sent', row.sentAt ? row.sentAt.toISOString().slice(0, 10) : '-'],
    ],
    files,
    decision: row.status,
    decidedBy: row.decidedByName ?? 'unknown',
    decidedAt: row.decidedAt,
    address: row.decidedFromIp ?? 'unknown',
    comment: row.decisionComment,
    reference: `${reference}, ${row.id}`,
  });
  return { fileName: `change-order-${reference}-${row.status}.pdf`, pdf };
}
