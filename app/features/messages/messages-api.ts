import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGE_TEXTS,
  type Message,
  type MessageListResponse,
  type MessageResponse,
  type SendMessageBody,
  type UploadResponse,
} from '../../../common/schemas/messages.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';
import { useStreamLive } from './use-message-stream.ts';

export const MESSAGES_KEY = ['messages'] as const;
export const projectMessagesKey = (projectId: string) => ['messages', 'project', projectId] as const;

/** How often the thread is read again while the live stream is down. */
export const MESSAGES_POLL_MS = 10_000;

/** A project's thread (GET /messages/project/{projectId}); polled only while the live stream is down. */
export function useProjectMessages(projectId: string) {
  const live = useStreamLive();
  return useQuery({
    queryKey: projectMessagesKey(projectId),
    queryFn: ({ signal }) => apiFetch<MessageListResponse>(`/messages/project/${projectId}`, { signal, fallbackMessage: 'Failed to load messages' }),
    select: (res) => res.messages,
    refetchInterval: live ? false : MESSAGES_POLL_MS,
    retry: retryUnlessClientError,
  });
}

/** Uploads one attachment as multipart (POST /messages/upload): the bytes stream, nothing is base64-encoded. */
export function uploadAttachment(file: File, signal?: AbortSignal) {
  const form = new FormData();
  // Fields before the file, so the server knows them when the bytes arrive.
  form.append('name', file.name);
  form.append('mimeType', file.type);
  form.append('file', file, file.name);
  return apiFetch<UploadResponse>('/messages/upload', { method: 'POST', formData: form, signal, fallbackMessage: `Failed to upload ${file.name}` });
}

function appendToThread(queryClient: ReturnType<typeof useQueryClient>, message: Message) {
  queryClient.setQueryData<MessageListResponse>(projectMessagesKey(message.projectId), (data) =>
    data && !data.messages.some((m) => m._id === message._id) ? { ...data, messages: [...data.messages, message] } : data,
  );
}

function replaceInThread(queryClient: ReturnType<typeof useQueryClient>, message: Message) {
  queryClient.setQueryData<MessageListResponse>(projectMessagesKey(message.projectId), (data) =>
    data ? { ...data, messages: data.messages.map((m) => (m._id === message._id ? message : m)) } : data,
  );
}

/** Sends a message (POST /messages) and puts it in the thread at once. */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SendMessageBody) =>
      apiFetch<MessageResponse>('/messages', { method: 'POST', json: body, fallbackMessage: MESSAGE_TEXTS.sendFailed }),
    onSuccess: (res) => appendToThread(queryClient, res.message),
  });
}

/** Marks a message read (PUT /messages/{id}/read), here and on the server; a failure is only logged. */
export function useMarkRead(onDone?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: Message) => apiFetch<MessageResponse>(`/messages/${message._id}/read`, { method: 'PUT' }),
    onMutate: (message) => replaceInThread(queryClient, { ...message, isRead: true }),
    onSuccess: (res) => {
      replaceInThread(queryClient, res.message);
      onDone?.();
    },
    onError: (err, message) => {
      console.error('Could not mark the message as read', err);
      replaceInThread(queryClient, message);
    },
  });
}
