import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGE_TEXTS,
  compareThreadPosition,
  threadCursor,
  type Message,
  type MarkThreadReadResponse,
  type MessageListResponse,
  type MessageResponse,
  type MessageVersionsResponse,
  type SendMessageBody,
  type UnreadCountsResponse,
  type UploadResponse,
} from '../../../common/schemas/messages.ts';
import { apiFetch } from '../../lib/api.ts';
import { projectMessagesKey, UNREAD_KEY } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';
import { useStreamLive } from './use-message-stream.ts';


/** How often the thread is read again while the live stream is down. */
const MESSAGES_POLL_MS = 10_000;
// A refetch reads pages until it reaches what is held; this many at most (20,000 messages).
const REFETCH_MAX_PAGES = 100;

/** The part of a thread the page holds: the newest messages down to the earliest page loaded, oldest first. */
export interface ThreadWindow {
  messages: Message[];
  /** Whether messages older than the first one held exist. */
  hasMore: boolean;
  /** How many of those older messages are unread for this user (the badge counts them too). */
  olderUnread: number;
}

function fetchThreadPage(projectId: string, before: string | undefined, signal?: AbortSignal) {
  const query = before ? `?${new URLSearchParams({ before })}` : '';
  return apiFetch<MessageListResponse>(`/messages/project/${projectId}${query}`, { signal, fallbackMessage: 'Failed to load messages' });
}

/** Messages of `held` older than `than`, kept when a newer part of the thread is read again. */
const olderThan = (held: Message[], than: Message | undefined) => (than ? held.filter((m) => compareThreadPosition(m, than) < 0) : []);

/**
 * A project's thread (GET /messages/project/{projectId}), page by page. Reading it again (a live
 * event, polling while the stream is down) reads the newest page and then earlier pages until it
 * reaches the oldest message already shown, so new messages join at the bottom, read receipts
 * reach every loaded message, and earlier pages the reader opened stay.
 */
export function useProjectMessages(projectId: string | null | undefined) {
  const live = useStreamLive();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: projectMessagesKey(projectId ?? 'none'),
    queryFn: async ({ signal }): Promise<ThreadWindow> => {
      if (!projectId) throw new Error('No project selected');
      const key = projectMessagesKey(projectId);
      const floor = queryClient.getQueryData<ThreadWindow>(key)?.messages[0];
      let messages: Message[] = [];
      let hasMore = false;
      let olderUnread = 0;
      for (let n = 0; n < REFETCH_MAX_PAGES; n++) {
        const page = await fetchThreadPage(projectId, messages[0] ? threadCursor(messages[0]) : undefined, signal);
        messages = [...page.messages, ...messages];
        hasMore = page.hasMore;
        olderUnread = page.olderUnread;
        if (!hasMore || !floor || !messages[0] || compareThreadPosition(messages[0], floor) <= 0) break;
      }
      // An earlier page may have arrived while this ran: it stays in front.
      const now = queryClient.getQueryData<ThreadWindow>(key);
      const earlier = olderThan(now?.messages ?? [], messages[0]);
      return earlier.length > 0
        ? { messages: [...earlier, ...messages], hasMore: now!.hasMore, olderUnread: now!.olderUnread }
        : { messages, hasMore, olderUnread };
    },
    enabled: Boolean(projectId),
    refetchInterval: live ? false : MESSAGES_POLL_MS,
    retry: retryUnlessClientError,
  });
}

/**
 * What waits to be read by the signed-in user (GET /messages/unread): in total, per project, and the
 * threads longest waiting first, in one request for every project. Live events keep it current; it
 * polls while the stream is down.
 */
export function useUnreadCounts(enabled = true) {
  const live = useStreamLive();
  return useQuery({
    queryKey: UNREAD_KEY,
    // Staff whose role does not read projects are refused the counts (decision 273): not asked.
    enabled,
    queryFn: ({ signal }) => apiFetch<UnreadCountsResponse>('/messages/unread', { signal, fallbackMessage: 'Failed to load unread messages' }),
    refetchInterval: live ? false : MESSAGES_POLL_MS,
    retry: retryUnlessClientError,
  });
}

/**
 * The thread's first load failure (not a later refetch's), for the dashboards' one 'Failed to load
 * project data' toast: a project's messages, reports and timelines load together.
 */
export function useMessagesLoadError(projectId: string | null | undefined) {
  const messages = useProjectMessages(projectId);
  return messages.data ? null : messages.error;
}

/** Loads the page before the oldest message shown and puts it in front ('Show earlier messages'). */
export function useLoadEarlierMessages(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const oldest = queryClient.getQueryData<ThreadWindow>(projectMessagesKey(projectId))?.messages[0];
      if (!oldest) return null;
      return { oldest, page: await fetchThreadPage(projectId, threadCursor(oldest)) };
    },
    onSuccess: (result) => {
      if (!result) return;
      queryClient.setQueryData<ThreadWindow>(projectMessagesKey(projectId), (data) => {
        if (!data) return data;
        const earlier = olderThan(result.page.messages, data.messages[0]);
        // Whether more exist is known only when the page ends at what is held.
        const sameFloor = data.messages[0]?._id === result.oldest._id;
        return {
          messages: [...earlier, ...data.messages],
          hasMore: sameFloor ? result.page.hasMore : data.hasMore,
          olderUnread: sameFloor ? result.page.olderUnread : data.olderUnread,
        };
      });
    },
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
  queryClient.setQueryData<ThreadWindow>(projectMessagesKey(message.projectId), (data) =>
    data && !data.messages.some((m) => m._id === message._id) ? { ...data, messages: [...data.messages, message] } : data,
  );
}

function replaceInThread(queryClient: ReturnType<typeof useQueryClient>, message: Message) {
  queryClient.setQueryData<ThreadWindow>(projectMessagesKey(message.projectId), (data) =>
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
      void queryClient.invalidateQueries({ queryKey: UNREAD_KEY });
      onDone?.();
    },
    onError: (err, message) => {
      console.error('Could not mark the message as read', err);
      replaceInThread(queryClient, message);
    },
  });
}

/** The author corrects a message (PATCH /messages/{id}); the thread shows the answer at once. */
export function useEditMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ message, text }: { message: Message; text: string }) =>
      apiFetch<MessageResponse>(`/messages/${message._id}`, { method: 'PATCH', json: { text }, fallbackMessage: 'Failed to edit the message' }),
    onSuccess: (res) => replaceInThread(queryClient, res.message),
  });
}

/** The author removes a message (DELETE /messages/{id}): it stays as 'This message was removed'. */
export function useDeleteMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: Message) => apiFetch<MessageResponse>(`/messages/${message._id}`, { method: 'DELETE', fallbackMessage: 'Failed to delete the message' }),
    onSuccess: (res) => {
      replaceInThread(queryClient, res.message);
      void queryClient.invalidateQueries({ queryKey: UNREAD_KEY });
    },
  });
}

/** 'Mark all as read' (PUT /messages/project/{projectId}/read): one request; other tabs hear it live. */
export function useMarkThreadRead(projectId: string, onDone?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<MarkThreadReadResponse>(`/messages/project/${projectId}/read`, { method: 'PUT', fallbackMessage: 'Failed to mark the messages as read' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectMessagesKey(projectId) });
      void queryClient.invalidateQueries({ queryKey: UNREAD_KEY });
      onDone?.();
    },
  });
}

/** An edited message's earlier versions (GET /messages/{id}/versions, staff), read while their dialog is open. */
export function useMessageVersions(messageId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['messages', 'versions', messageId] as const,
    queryFn: ({ signal }) => apiFetch<MessageVersionsResponse>(`/messages/${messageId}/versions`, { signal, fallbackMessage: 'Failed to load the earlier versions' }),
    enabled,
    staleTime: 0,
    retry: retryUnlessClientError,
  });
}
