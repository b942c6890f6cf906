import '../zod-setup.ts';
import { z } from 'zod';
import { singleLineText, storableText } from './text.ts';
import { multiline } from './line-endings.ts';
import { cursorListResponse } from './pagination.ts';
import { NOTHING_TO_CHANGE, namesAField, withoutDefaults } from './patch.ts';
import { listQuerySchema } from './archive.ts';
import { okResponse } from './ok-response.ts';
import { numberToKobo, parseNairaToKobo } from '../money.ts';

export const PROJECT_STATUSES = ['not-started', 'in-progress', 'paused', 'completed'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The admin list's status button cycles not-started → in-progress → paused → completed → not-started. */
export function nextProjectStatus(status: ProjectStatus): ProjectStatus {
  return PROJECT_STATUSES[(PROJECT_STATUSES.indexOf(status) + 1) % PROJECT_STATUSES.length];
}

export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  'not-started': 'Not started',
  'in-progress': 'In progress',
  paused: 'Paused',
  completed: 'Completed',
};

const optionalDate = z
  .union([z.iso.date('Use a date such as 2026-01-31'), z.literal(''), z.null()])
  .optional()
  .transform((v) => (v ? v : null));

/**
 * Budget arrives as a number or the text of a form field; empty means the default, 0. It is read to
 * kobo exactly (common/money.ts, decision 294): at most two decimals, never negative.
 */
const budget = z
  .union([z.number(), storableText().trim()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return 0n;
    const parsed = typeof v === 'number' ? numberToKobo(v) : parseNairaToKobo(v);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: `Budget must be a number of 0 or more with at most two decimals (${parsed.message})` });
      return z.NEVER;
    }
    return parsed.kobo;
  });

const projectFieldsSchema = z.object({
    name: singleLineText('Name').min(1, 'Name is required').max(200),
    code: singleLineText('Code').min(1, 'Code is required').max(50),
    description: multiline(storableText()).trim().max(5000).optional().default(''),
    startDate: optionalDate,
    endDate: optionalDate,
    budget,
    clientId: z.uuid('Choose a client'),
});

/** Creation's date rule, also checked by a PATCH against the dates it leaves as they are (the service). */
export const DATES_OUT_OF_ORDER = 'The end date must not be before the start date';
export const datesInOrder = (p: { startDate?: string | null; endDate?: string | null }) => !p.startDate || !p.endDate || p.startDate <= p.endDate;

export const createProjectBodySchema = projectFieldsSchema.refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['endDate'] });
export type CreateProjectBody = z.input<typeof createProjectBodySchema>;

const projectSchema = z.object({
  _id: z.string(),
  name: z.string(),
  code: z.string(),
  description: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  /** Staff only: a client's answers do not contain it. */
  budget: z.number().optional(),
  /** Staff only: the same budget exactly, as kobo in decimal text ('125000050'; decision 294). */
  budgetKobo: z.string().optional(),
  status: z.enum(PROJECT_STATUSES),
  clientId: z.object({ _id: z.string(), name: z.string() }),
  createdAt: z.string(),
  /** When staff archived it (read-only since); null while live. */
  archivedAt: z.string().nullable(),
});
export type Project = z.infer<typeof projectSchema>;

export const projectResponseSchema = okResponse({ project: projectSchema });
export type ProjectResponse = z.infer<typeof projectResponseSchema>;

export const projectListResponseSchema = cursorListResponse({ projects: z.array(projectSchema) });
export type ProjectListResponse = z.infer<typeof projectListResponseSchema>;

/** GET /projects/client/{clientId}: the page, a status filter and an order (decision 248). */
export const projectListQuerySchema = listQuerySchema(PROJECT_STATUSES);
export type ProjectListQuery = z.infer<typeof projectListQuerySchema>;

export const projectIdParamsSchema = z.object({ id: z.uuid() });
export const projectClientParamsSchema = z.object({ clientId: z.uuid() });
export const updateProjectStatusBodySchema = z.object({ status: z.enum(PROJECT_STATUSES) });

/**
 * PATCH /projects/{id}: any of name, code, description, dates, budget and status, with creation's
 * rules and messages (the client stays: a project does not move to another client). An empty date
 * clears it; an empty budget is 0, as at creation.
 */
export const updateProjectBodySchema = withoutDefaults(projectFieldsSchema)
  .omit({ clientId: true })
  .extend({ status: z.enum(PROJECT_STATUSES) })
  .partial()
  .strict()
  .refine(namesAField, NOTHING_TO_CHANGE)
  .refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['endDate'] });
export type UpdateProjectBody = z.input<typeof updateProjectBodySchema>;
