import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  RequestFilteringHttpAgent,
  RequestFilteringHttpsAgent,
} from 'request-filtering-agent';

/** A delivery's whole time, connection included: a receiver answers within it or has failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** How much of a receiver's answer is read (and dropped): enough to end the exchange cleanly. */
export const MAX_ANSWER_BYTES = 4096;

/** The `error` of a send ended because the instance stops: not the receiver's failure. */
export const ABORTED = 'aborted: the instance is stopping';

/** What one attempt came to (docs/API.md, "Webhooks", a delivery's `status_code` and `error`). */
export interface Attempt {
  statusCode: number | null;
  /** Why it failed without a status, or a redirect (not followed); null for any status answered. */
  error: string | null;
  durationMs: number;
}

/** The outcome's label on the deliveries metric, from a small fixed set. */
export type AttemptOutcome =
  | 'delivered'
  | 'failed_status'
  | 'gone'
  | 'timeout'
  | 'refused'
  | 'failed_connection';

export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = [
  'delivered',
  'failed_status',
  'gone',
  'timeout',
  'refused',
  'failed_connection',
];

export function outcomeOf(attempt: Attempt): AttemptOutcome {
  const status = attempt.statusCode;
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  if (status !== null) return 'failed_status';
  if (attempt.error === 'timeout') return 'timeout';
  if (attempt.error?.startsWith('refused')) return 'refused';
  return 'failed_connection';
}

/**
 * Sends deliveries (docs/API.md, "Webhooks"; docs/OPERATIONS.md, "Webhooks"): one POST, through
 * agents that check every address a connection is about to use (request-filtering-agent), so that
 * a host that resolved to a public address when its URL was saved and to a private one now is
 * refused before a byte is sent; redirects are answers, never followed; DELIVERY_TIMEOUT_MS bounds
 * the connection and the whole exchange; at most MAX_ANSWER_BYTES of the answer are read.
 */
export class WebhookSender {
  private readonly http: RequestFilteringHttpAgent;
  private readonly https: RequestFilteringHttpsAgent;
  /** The sends in progress, each ended by `abortAll`. */
  private readonly inFlight = new Set<() => void>();

  constructor(private readonly allowPrivate: boolean) {
    const options = {
      keepAlive: true,
      allowPrivateIPAddress: allowPrivate,
      allowMetaIPAddress: false,
    };
    this.http = new RequestFilteringHttpAgent(options);
    this.https = new RequestFilteringHttpsAgent(options);
  }

  /** One attempt; `signal` ends it as `abortAll` does (the sender no longer holds the lease). */
  send(
    url: string,
    body: string,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Attempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      let deadline: NodeJS.Timeout | undefined;
      let abort = () => {};
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        this.inFlight.delete(abort);
        signal?.removeEventListener('abort', abort);
        resolve({ statusCode, error, durationMs: elapsed() });
      };
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        finish(null, 'refused: not a URL');
        return;
      }
      const secure = target.protocol === 'https:';
      if (!secure && !(this.allowPrivate && target.protocol === 'http:')) {
        finish(null, 'refused: not an https:// URL');
        return;
      }
      const request = (secure ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        agent: secure ? this.https : this.http,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'BoxOfficeAPI-Webhooks/1',
        },
      });
      deadline = setTimeout(() => {
        finish(null, 'timeout');
        request.destroy();
      }, DELIVERY_TIMEOUT_MS);
      abort = () => {
        finish(null, ABORTED);
        request.destroy();
      };
      this.inFlight.add(abort);
      if (signal?.aborted) abort();
      signal?.addEventListener('abort', abort, { once: true });
      request.on('response', (response) => {
        const status = response.statusCode ?? null;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () =>
          finish(
            status,
            status !== null && status >= 300 && status < 400
              ? 'redirect not followed'
              : null,
          );
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      });
      request.on('error', (error: NodeJS.ErrnoException) =>
        finish(null, describeFailure(error)),
      );
      request.end(body);
    });
  }

  /** Ends every send in progress, each answered ABORTED (the instance is stopping). */
  abortAll(): void {
    for (const abort of this.inFlight) abort();
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** A connection's failure in a few words: the `error` of the delivery, never a stack. */
function describeFailure(error: NodeJS.ErrnoException): string {
  if (/is not allowed/.test(error.message)) {
    return 'refused: the address is private, loopback or reserved';
  }
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return error.code?.startsWith('ERR_TLS') ||
        error.code?.includes('CERT') ||
        /certificate|SSL|TLS/i.test(error.message)
        ? 'TLS error'
        : 'connection failed';
  }
}
