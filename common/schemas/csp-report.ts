import '../zod-setup.ts';
import { z } from 'zod';

/** Largest report body accepted (a browser's report is well under 2 KB); more answers 413. */
export const CSP_REPORT_MAX_BYTES = 8 * 1024;

/** The media types browsers send reports with: `report-uri` (legacy) and the Reporting API (`report-to`). */
export const CSP_REPORT_MEDIA_TYPES = ['application/csp-report', 'application/reports+json'] as const;

const text = (max: number) => z.string().max(max).optional();

/** `report-uri`: one violation, `{ "csp-report": { ... } }` with hyphenated field names. */
const legacyReportSchema = z.object({
  'csp-report': z.looseObject({
    'document-uri': text(2048),
    'effective-directive': text(200),
    'violated-directive': text(2048),
    'blocked-uri': text(2048),
  }),
});

/** Reporting API: a list of reports; only those of type `csp-violation` are counted. */
const reportingApiSchema = z
  .array(
    z.looseObject({
      type: z.string().max(100),
      url: text(2048),
      body: z.looseObject({ effectiveDirective: text(200), blockedURL: text(2048), documentURL: text(2048) }).optional(),
    }),
  )
  .max(50);

export const cspReportBodySchema = z.union([legacyReportSchema, reportingApiSchema]);
export type CspReportBody = z.infer<typeof cspReportBodySchema>;

/** One violation as it is counted and logged. */
export interface CspViolation {
  directive: string;
  blockedUri: string;
}

/** The violations a report body holds, whichever of the two formats it came in. */
export function violationsOf(body: CspReportBody): CspViolation[] {
  if (!Array.isArray(body)) {
    const report = body['csp-report'];
    return [{ directive: report['effective-directive'] ?? report['violated-directive'] ?? '', blockedUri: report['blocked-uri'] ?? '' }];
  }
  return body
    .filter((report) => report.type === 'csp-violation')
    .map((report) => ({ directive: report.body?.effectiveDirective ?? '', blockedUri: report.body?.blockedURL ?? '' }));
}
