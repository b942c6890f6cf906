import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BLOG_MESSAGES,
  type BlogImageResponse,
  type BlogListResponse,
  type BlogPostFields,
  type BlogPostResponse,
  type BlogPostUpdate,
  type BlogPreviewResponse,
  type BlogVisibility,
} from '../../../common/schemas/blog.ts';
import { apiFetch } from '../../lib/api.ts';

const POSTS_KEY = ['blog-posts'] as const;

/** Staff's list of posts: one page, optionally searched by title. */
export function useBlogPosts(page: number, q: string) {
  return useQuery({
    queryKey: [...POSTS_KEY, 'list', page, q],
    queryFn: () => {
      const query = new URLSearchParams({ page: String(page) });
      if (q) query.set('q', q);
      return apiFetch<BlogListResponse>(`/blog/posts?${query}`, { fallbackMessage: BLOG_MESSAGES.loadFailed });
    },
    placeholderData: keepPreviousData,
  });
}

/** One post for the edit form. Not refetched behind the editor's back: the form owns the text while open. */
export function useBlogPost(id: string) {
  return useQuery({
    queryKey: [...POSTS_KEY, 'one', id],
    queryFn: () => apiFetch<BlogPostResponse>(`/blog/posts/${encodeURIComponent(id)}`, { fallbackMessage: BLOG_MESSAGES.loadOneFailed }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    // A missing post or a refused version will not change by asking again.
    retry: (count, err) => count < 3 && !(err && 'status' in err && (err.status === 404 || err.status === 400)),
  });
}

export function useCreateBlogPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: BlogPostFields) => apiFetch<BlogPostResponse>('/blog/posts', { method: 'POST', json: fields, fallbackMessage: BLOG_MESSAGES.saveFailed }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: POSTS_KEY }),
  });
}

export function useUpdateBlogPost(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: BlogPostUpdate) =>
      apiFetch<BlogPostResponse>(`/blog/posts/${encodeURIComponent(id)}`, { method: 'PUT', json: fields, fallbackMessage: BLOG_MESSAGES.saveFailed }),
    onSuccess: (data) => {
      queryClient.setQueryData([...POSTS_KEY, 'one', id], data);
      return queryClient.invalidateQueries({ queryKey: [...POSTS_KEY, 'list'] });
    },
  });
}

/** The list's show/hide switch. */
export function useSetBlogVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, visibility }: { id: string; visibility: BlogVisibility }) =>
      apiFetch<BlogPostResponse>(`/blog/posts/${encodeURIComponent(id)}/visibility`, {
        method: 'PUT',
        json: { visibility },
        fallbackMessage: BLOG_MESSAGES.visibilityFailed,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: POSTS_KEY }),
  });
}

export function useDeleteBlogPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ success: true }>(`/blog/posts/${encodeURIComponent(id)}`, { method: 'DELETE', fallbackMessage: BLOG_MESSAGES.deleteFailed }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: POSTS_KEY }),
  });
}

/** Uploads a banner or an image for the text; answers its id and size. */
export function uploadBlogImage(file: File): Promise<BlogImageResponse> {
  const formData = new FormData();
  formData.append('file', file);
  return apiFetch<BlogImageResponse>('/blog/images', { method: 'POST', formData, fallbackMessage: BLOG_MESSAGES.uploadFailed });
}

/** The content as the public page will show it (the server's sanitiser). */
export function previewBlogContent(content: string): Promise<BlogPreviewResponse> {
  return apiFetch<BlogPreviewResponse>('/blog/preview', { method: 'POST', json: { content }, fallbackMessage: 'Failed to load the preview' });
}
