import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';

/** One page of the audit log; the screen asks for the next by the cursor of the last row. */
export const AUDIT_PAGE_SIZE = 50;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-01-31');

/** The filters of the audit log and its CSV export. Days are calendar days in Lagos, both included. */
export const auditFilterSchema = z
  .object({
    actorId: z.uuid().optional(),
    projectId: z.uuid().optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: 'The start date must be on or before the end date',
    path: ['to'],
  });
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** '<ISO time>_<id>': the (at, id) of the last row seen (keyset paging, newest first). */
export const auditListQuerySchema = z.intersection(
  auditFilterSchema,
  z.object({
    cursor: z
      .string()
      .regex(/^[0-9T:.\-+Z]+_[0-9a-f-]{36}$/, 'Not a page cursor')
      .optional(),
  }),
);

const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  address: z.string().nullable(),
  action: z.string(),
  entityKind: z.string(),
  entityId: z.string(),
  projectId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditListResponseSchema = okResponse({
  events: z.array(auditEventSchema),
  nextCursor: z.string().nullable(),
});
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/** The people and projects the filters offer. */
export const auditFilterOptionsResponseSchema = okResponse({
  people: z.array(z.object({ id: z.string(), label: z.string() })),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AuditFilterOptions = z.infer<typeof auditFilterOptionsResponseSchema>;

/** 'name: "Old" → "New"; status: "new" → "in-progress"': what changed, readable in one line. */
export function describeChange(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const shown = (v: unknown) => (v === undefined ? '(none)' : v === null ? '(empty)' : JSON.stringify(v));
  return keys.map((k) => `${k}: ${shown(before?.[k])} → ${shown(after?.[k])}`).join('; ');
}
