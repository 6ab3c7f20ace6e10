import type { Caller } from '../../auth/auth.service';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by AuthMiddleware when the request carries a valid API key. */
    caller?: Caller;
    /** Set by AuthMiddleware when a credential was sent and is not valid. */
    authFailed?: boolean;
    /**
     * Set by AuthMiddleware when this client IP has failed authentication too often: the seconds
     * until it may try again. The rate limiter answers 429.
     */
    authThrottled?: number;
  }
}
