import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentCategory, ProjectDocument } from '../../../common/schemas/documents.ts';
import { apiFetch } from '../../lib/api.ts';
import { projectDocumentsKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

type DocumentListResponse = { success: true; documents: ProjectDocument[] };
type DocumentResponse = { success: true; document: ProjectDocument };

/** A project's document register (staff: every document; a client: those shown to it). */
export function useProjectDocuments(projectId: string) {
  return useQuery({
    queryKey: projectDocumentsKey(projectId),
    queryFn: ({ signal }) => apiFetch<DocumentListResponse>(`/projects/${projectId}/documents`, { signal, fallbackMessage: 'Failed to load the documents' }),
    retry: retryUnlessClientError,
  });
}

/** Uploads a new document (fields, then the file) or a new version of one (`documentId`). */
export function useUploadDocument(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, fields, file }: { documentId?: string; fields: Record<string, string>; file: File }) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append('file', file, file.name);
      const path = documentId ? `/projects/${projectId}/documents/${documentId}/versions` : `/projects/${projectId}/documents`;
      return apiFetch<DocumentResponse>(path, { method: 'POST', formData: form, fallbackMessage: 'Failed to upload the document' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectDocumentsKey(projectId) }),
  });
}

/** Renames, recategorises, shows or hides a document. */
export function useUpdateDocument(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, changes }: { documentId: string; changes: { title?: string; category?: DocumentCategory; visibleToClient?: boolean } }) =>
      apiFetch<DocumentResponse>(`/projects/${projectId}/documents/${documentId}`, { method: 'PATCH', json: changes, fallbackMessage: 'Failed to change the document' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectDocumentsKey(projectId) }),
  });
}
