import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';
import { formatNaira } from '../money.ts';

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
  /** The names of the clients and projects the page's events point at by id, so people read names. */
  names: z.record(z.string(), z.string()),
  nextCursor: z.string().nullable(),
});
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/** The people and projects the filters offer. */
export const auditFilterOptionsResponseSchema = okResponse({
  people: z.array(z.object({ id: z.string(), label: z.string() })),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AuditFilterOptions = z.infer<typeof auditFilterOptionsResponseSchema>;

/** Ids of other records that a change may carry; the log shows their names. */
export const NAMED_ID_KEYS = ['clientId', 'projectId'] as const;

/**
 * One recorded value as people read it: a budget in naira, a client or project by its name (the
 * id when it no longer exists), text as it is, anything else as JSON.
 */
export function auditValueText(key: string, value: unknown, names: Record<string, string> = {}): string {
  if (value === undefined) return '(none)';
  if (value === null || value === '') return '(empty)';
  if (key === 'budget' && Number.isFinite(Number(value))) return formatNaira(Number(value));
  if (typeof value === 'string') return (NAMED_ID_KEYS as readonly string[]).includes(key) ? (names[value] ?? value) : value;
  return JSON.stringify(value);
}

/** 'name: "Old" → "New"; budget: "₦0.00" → "₦2,500,000.00"': what changed, readable in one line. */
export function describeChange(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  names: Record<string, string> = {},
): string {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  // Values stay quoted, so a value's own spaces, arrows or semicolons cannot blur where it ends.
  const shown = (k: string, v: unknown) =>
    (typeof v === 'string' && v !== '') || (k === 'budget' && typeof v === 'number')
      ? JSON.stringify(auditValueText(k, v, names))
      : auditValueText(k, v);
  return keys.map((k) => `${k}: ${shown(k, before?.[k])} → ${shown(k, after?.[k])}`).join('; ');
}
