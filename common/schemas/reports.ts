import '../zod-setup.ts';
import { z } from 'zod';
import { singleLineText, storableText } from './text.ts';
import { multiline } from './line-endings.ts';
import { paginationSchema } from './pagination.ts';
import { withoutDefaults } from './patch.ts';
import { okResponse } from './ok-response.ts';

/** Report images: the specification leaves the limits open; these are ours. */
export const REPORT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const REPORT_IMAGES_MAX = 20;
/** Checked against the file's bytes on the server; the browser uses it only to pre-filter. */
export const REPORT_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
const REPORT_TEXT_MAX = 10_000;

const requiredText = (label: string) => multiline(storableText()).trim().min(1, `${label} is required`).max(REPORT_TEXT_MAX);
const optionalText = multiline(storableText()).trim().max(REPORT_TEXT_MAX).optional().default('');

/** The text fields of a new report (multipart fields; images travel as repeated `images` files). */
export const createReportFieldsSchema = z.object({
  date: z.iso.date('Date: use a date such as 2026-01-31'),
  projectId: z.uuid('Choose a project'),
  projectCode: singleLineText('Project code').max(50).optional().default(''),
  project: singleLineText('Project').min(1, 'Project is required').max(REPORT_TEXT_MAX),
  /** Empty means the company's name (filled in by the server). */
  team: singleLineText('Team').max(200).optional().default(''),
  tasks: requiredText('Tasks'),
  progress: requiredText('Progress'),
  challenges: optionalText,
  actionTaken: optionalText,
  helpNeeded: optionalText,
  nextSteps: optionalText,
  feedback: optionalText,
  conclusion: optionalText,
});

/** The optional long-text sections of a report, in the order they are shown and printed. */
export const REPORT_SECTIONS = [
  { key: 'tasks', label: 'Tasks' },
  { key: 'progress', label: 'Progress' },
  { key: 'challenges', label: 'Challenges' },
  { key: 'actionTaken', label: 'Action Taken' },
  { key: 'helpNeeded', label: 'Help Needed' },
  { key: 'nextSteps', label: 'Next Steps' },
  { key: 'feedback', label: 'Feedback' },
  { key: 'conclusion', label: 'Conclusion' },
] as const;

const reportImageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string(),
  thumbnailUrl: z.string(),
});

/** A report's text as stored and sent: the same fields in the report and in each earlier version of it. */
const reportTextShape = {
  date: z.string(),
  projectCode: z.string(),
  project: z.string(),
  team: z.string(),
  tasks: z.string(),
  progress: z.string(),
  challenges: z.string(),
  actionTaken: z.string(),
  helpNeeded: z.string(),
  nextSteps: z.string(),
  feedback: z.string(),
  conclusion: z.string(),
};

const reportSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  ...reportTextShape,
  images: z.array(reportImageSchema),
  pdfUrl: z.string(),
  createdAt: z.string(),
  /** When staff last corrected the report (the client reads 'Corrected on {date}'); null if never. */
  correctedAt: z.string().nullable(),
  /** 1 when written, one more at each correction; the earlier ones are its history (staff). */
  version: z.number().int(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportResponseSchema = okResponse({ report: reportSchema });
export type ReportResponse = z.infer<typeof reportResponseSchema>;

export const reportListResponseSchema = okResponse({
  reports: z.array(reportSchema),
  pagination: paginationSchema,
});
export type ReportListResponse = z.infer<typeof reportListResponseSchema>;

export const reportIdParamsSchema = z.object({ id: z.uuid() });
export const reportProjectParamsSchema = z.object({ projectId: z.uuid() });
export const reportImageParamsSchema = z.object({ id: z.uuid(), imageId: z.uuid() });

/** Where the browser fetches a report's files (all under /api, checked per request). */
export const reportUrls = {
  pdf: (reportId: string) => `/api/reports/${reportId}/pdf`,
  image: (reportId: string, imageId: string) => `/api/reports/${reportId}/images/${imageId}`,
  thumbnail: (reportId: string, imageId: string) => `/api/reports/${reportId}/images/${imageId}/thumbnail`,
};

/** Whether a client is e-mailed when a progress report is added (GET/PUT /reports/mail-setting). */
export const reportMailSettingBodySchema = z.object({ reportMail: z.boolean() });
export const reportMailSettingResponseSchema = okResponse({ reportMail: z.boolean() });
export type ReportMailSettingResponse = z.infer<typeof reportMailSettingResponseSchema>;

/**
 * PATCH /reports/{id} (multipart, like creation): any text field with creation's rules and messages,
 * new `images` files, `removeImages` (comma-separated image ids) and `notifyClient` ('true': mail
 * the client about the correction; otherwise nobody is mailed). The project stays.
 */
export const updateReportFieldsSchema = withoutDefaults(createReportFieldsSchema)
  .omit({ projectId: true })
  .extend({
    removeImages: z
      .string()
      .transform((v) => v.split(',').map((id) => id.trim()).filter(Boolean))
      .pipe(z.array(z.uuid('removeImages: image ids separated by commas'))),
    notifyClient: z.enum(['true', 'false']).transform((v) => v === 'true'),
  })
  .partial()
  .strict();

/** One earlier version of a report, as it read before a correction replaced it (staff only). */
const reportVersionSchema = z.object({
  version: z.number().int(),
  /** Who wrote this version (created or corrected it) and when; null once that account is gone. */
  writtenBy: z.string().nullable(),
  writtenAt: z.string(),
  ...reportTextShape,
  /** The names of the images this version had (the files of removed images are not kept). */
  imageNames: z.array(z.string()),
});
export type ReportVersion = z.infer<typeof reportVersionSchema>;

export const reportVersionsResponseSchema = okResponse({
  /** Who wrote the current version and when. */
  current: z.object({ version: z.number().int(), writtenBy: z.string().nullable(), writtenAt: z.string() }),
  /** The earlier versions, newest first. */
  versions: z.array(reportVersionSchema),
});
export type ReportVersionsResponse = z.infer<typeof reportVersionsResponseSchema>;

export const updateReportResponseSchema = okResponse({
  report: reportSchema,
  /** Whether the client was mailed about this correction: only when staff asked and the client takes report mails. */
  clientMailed: z.boolean(),
});
export type UpdateReportResponse = z.infer<typeof updateReportResponseSchema>;
