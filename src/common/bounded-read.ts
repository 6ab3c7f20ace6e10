/**
 * Reads that a probe or a scrape makes of the database, bounded so that a database that hangs
 * neither stalls the caller nor gathers reads: each caller waits at most its own time, and a read
 * still running is shared by every caller meanwhile instead of a new one starting per call (per
 * probe, per scrape), each holding a pool connection.
 */

/** `read`, shared by the calls made while one runs: they all get that run's result. */
export function sharedWhileRunning<T>(
  read: () => Promise<T>,
): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () =>
    (running ??= read().finally(() => {
      running = null;
    }));
}

/** What `promise` gives within `ms`; undefined when it fails or is later. */
export async function within<T>(
  promise: Promise<T>,
  ms: number,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
    timer.unref();
  });
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
