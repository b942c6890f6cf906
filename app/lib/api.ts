/** A failed API call, carrying the server's message (or the caller's fallback). */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body. */
  json?: unknown;
  /** Multipart body (uploads). */
  formData?: FormData;
  signal?: AbortSignal;
  /** Message to show when the server gives none. */
  fallbackMessage?: string;
}

/**
 * The message of an API failure body (DESIGN.md section 5), or the fallback. No zod here: this module
 * is on the public form pages, and the check is only "a non-empty string message" (decision 144).
 */
function errorMessageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) {
    return body.message;
  }
  return fallback;
}

/** Calls our own API under /api; statuses outside 200-299 throw ApiRequestError. */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.formData) {
    body = options.formData;
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiRequestError(options.fallbackMessage ?? 'Network error: please check your connection', 0);
  }
  const text = await response.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const code = data && typeof data === 'object' && 'code' in data ? String(data.code) : undefined;
    const details = data && typeof data === 'object' && 'details' in data ? data.details : undefined;
    throw new ApiRequestError(errorMessageOf(data, options.fallbackMessage ?? `Request failed (${response.status})`), response.status, code, details);
  }
  return data as T;
}
