import '../zod-setup.ts';
import { z } from 'zod';
import { singleLineText } from './text.ts';

/** A project document's largest version, exactly (decision 292): 100 MB passes, one byte more is 413. */
export const DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;

/** The register's categories, in the order the register shows them. */
export const DOCUMENT_CATEGORIES = ['drawing', 'contract', 'permit', 'proposal', 'method-statement', 'certificate', 'other'] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];

export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  drawing: 'Drawings',
  contract: 'Contracts',
  permit: 'Permits',
  proposal: 'Proposals',
  'method-statement': 'Method statements',
  certificate: 'Certificates',
  other: 'Other documents',
};

/** The kinds of file a document version may be, judged by the bytes (decision 292). */
export const DOCUMENT_FILE_KINDS = ['pdf', 'jpeg', 'png', 'webp', 'docx', 'xlsx', 'pptx', 'dwg', 'dxf', 'zip'] as const;
export type DocumentFileKind = (typeof DOCUMENT_FILE_KINDS)[number];

/** What the browser's file picker offers; the server decides by the bytes. */
export const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png,.webp,.docx,.xlsx,.pptx,.dwg,.dxf,.zip';

const title = singleLineText('Title').min(1, 'Title is required').max(200);
const label = singleLineText('Version label').max(40);

/** The fields of a new document (multipart fields before the `file` part). */
export const createDocumentFieldsSchema = z.object({
  title,
  category: z.enum(DOCUMENT_CATEGORIES, 'Choose a category'),
  /** Empty: "Version 1". */
  label: label.optional().default(''),
  visibleToClient: z
    .enum(['true', 'false', '1', '0', 'on'])
    .optional()
    .transform((v) => v === 'true' || v === '1' || v === 'on'),
});

/** The fields of a new version (multipart fields before the `file` part). */
export const newVersionFieldsSchema = z.object({
  /** Empty: "Version N". */
  label: label.optional().default(''),
});

export const updateDocumentBodySchema = z
  .object({
    title: title.optional(),
    category: z.enum(DOCUMENT_CATEGORIES, 'Choose a category').optional(),
    visibleToClient: z.boolean().optional(),
  })
  .refine((b) => b.title !== undefined || b.category !== undefined || b.visibleToClient !== undefined, 'Change at least one field');

export const documentProjectParamsSchema = z.object({ projectId: z.uuid() });
export const documentParamsSchema = z.object({ projectId: z.uuid(), documentId: z.uuid() });
export const documentVersionParamsSchema = z.object({ projectId: z.uuid(), documentId: z.uuid(), versionId: z.uuid() });
export const documentDownloadQuerySchema = z.object({ download: z.enum(['1', 'true']).optional() });

const documentVersionSchema = z.object({
  _id: z.string(),
  number: z.number().int(),
  label: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  uploadedBy: z.string().nullable(),
  uploadedAt: z.string(),
  superseded: z.boolean(),
  /** Opens in the browser when it can (PDF, images); add `?download=1` to save it. */
  url: z.string(),
  previewable: z.boolean(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

const projectDocumentSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  title: z.string(),
  category: z.enum(DOCUMENT_CATEGORIES),
  visibleToClient: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  current: documentVersionSchema,
  /** Earlier versions, newest first, each marked superseded. */
  superseded: z.array(documentVersionSchema),
});
export type ProjectDocument = z.infer<typeof projectDocumentSchema>;

export const documentListResponseSchema = z.object({ success: z.literal(true), documents: z.array(projectDocumentSchema) });
export const documentResponseSchema = z.object({ success: z.literal(true), document: projectDocumentSchema });

/** Where the browser fetches a version (the route checks who asks). */
export const documentUrls = {
  list: (projectId: string) => `/api/projects/${projectId}/documents`,
  one: (projectId: string, documentId: string) => `/api/projects/${projectId}/documents/${documentId}`,
  versions: (projectId: string, documentId: string) => `/api/projects/${projectId}/documents/${documentId}/versions`,
  file: (projectId: string, documentId: string, versionId: string) =>
    `/api/projects/${projectId}/documents/${documentId}/versions/${versionId}/file`,
};
