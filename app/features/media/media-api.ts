import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MEDIA_PAGE_SIZE,
  type MediaItem,
  type MediaKind,
  type MediaListResponse,
  type MediaUpdate,
} from '../../../common/schemas/media.ts';
import { pageQuery } from '../../../common/schemas/pagination.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

const MEDIA_KEY = ['media'] as const;

/** One page of the library, newest first; `q` keeps the items whose alt text contains it, `kind` only images or only PDFs. */
export function useMediaList(page: number, q = '', kind?: MediaKind) {
  const search = (q.trim() ? `&q=${encodeURIComponent(q.trim())}` : '') + (kind ? `&kind=${kind}` : '');
  return useQuery({
    queryKey: [...MEDIA_KEY, 'list', page, q.trim(), kind ?? 'all'],
    queryFn: ({ signal }) =>
      apiFetch<MediaListResponse>(`/media${pageQuery(page, MEDIA_PAGE_SIZE)}${search}`, {
        signal,
        fallbackMessage: 'Failed to load the media library',
      }),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

/** One item, for an image field that names it (none asked for while `id` is null). */
export function useMediaItem(id: string | null) {
  return useQuery({
    queryKey: [...MEDIA_KEY, 'item', id],
    queryFn: ({ signal }) => apiFetch<{ item: MediaItem }>(`/media/${encodeURIComponent(id ?? '')}`, { signal, fallbackMessage: 'Failed to load the image' }),
    enabled: id !== null,
    retry: retryUnlessClientError,
  });
}

function useMediaMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: MEDIA_KEY }) });
}

export const useUploadMedia = () =>
  useMediaMutation((input: { file: File; altText: string; kind?: MediaKind }) => {
    const form = new FormData();
    // The alt text first: the server refuses a missing one before it reads the file.
    form.append('altText', input.altText);
    // A picker for one kind says so: the server refuses a file of the other kind (decision 295).
    if (input.kind) form.append('kind', input.kind);
    form.append('file', input.file);
    return apiFetch<{ item: MediaItem }>('/media', {
      formData: form,
      fallbackMessage: input.kind === 'pdf' ? 'The PDF could not be uploaded' : 'The file could not be uploaded',
    });
  });

export const useUpdateMedia = () =>
  useMediaMutation(({ id, changes }: { id: string; changes: MediaUpdate }) =>
    apiFetch<{ item: MediaItem }>(`/media/${encodeURIComponent(id)}`, { method: 'PATCH', json: changes, fallbackMessage: 'The changes could not be saved' }),
  );

export const useDeleteMedia = () =>
  useMediaMutation((id: string) => apiFetch(`/media/${encodeURIComponent(id)}`, { method: 'DELETE', fallbackMessage: 'The image could not be deleted' }));
