/** One request of a traffic run: when it was sent, how long it took and what came back. */
export interface Sample {
  sentAt: number;
  ms: number;
  status: number | null;
  headers: Headers | null;
  body: string;
  /** A connection error or a time-out (the request took longer than `timeoutMs`). */
  error: string | null;
}

export interface Traffic {
  samples: Sample[];
  /** Stops sending and resolves when every request in flight has ended. */
  stop(): Promise<void>;
}

/** Sends `request` once and records the outcome; gives up after `timeoutMs` (recorded as an error). */
export async function sample(
  url: string,
  headers: Record<string, string>,
  timeoutMs = 5_000,
): Promise<Sample> {
  const sentAt = Date.now();
  try {
    const res = await fetch(url, {
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await res.text();
    return {
      sentAt,
      ms: Date.now() - sentAt,
      status: res.status,
      headers: res.headers,
      body,
      error: null,
    };
  } catch (error) {
    return {
      sentAt,
      ms: Date.now() - sentAt,
      status: null,
      headers: null,
      body: '',
      error:
        error instanceof Error ? `${error.name}: ${error.message}` : 'error',
    };
  }
}

/** Traffic runs not stopped yet: what a file that failed midway leaves running. */
const running = new Set<Traffic>();

/**
 * `loops` clients, each sending `url` again as soon as its last request ended (keep-alive
 * connections), with `pauseMs` between requests, until stopped.
 */
export function startTraffic(
  url: string,
  headers: Record<string, string>,
  options: { loops?: number; pauseMs?: number; timeoutMs?: number } = {},
): Traffic {
  const samples: Sample[] = [];
  let sending = true;
  const loop = async () => {
    while (sending) {
      samples.push(await sample(url, headers, options.timeoutMs));
      await new Promise((resolve) =>
        setTimeout(resolve, options.pauseMs ?? 20),
      );
    }
  };
  const loops = Array.from({ length: options.loops ?? 4 }, loop);
  const traffic: Traffic = {
    samples,
    stop: async () => {
      sending = false;
      running.delete(traffic);
      await Promise.all(loops);
    },
  };
  running.add(traffic);
  return traffic;
}

/**
 * Stops every traffic run a test left going (it failed before its `stop()`): each loop would
 * otherwise keep sending, to a server long stopped, and keep jest from exiting
 * (multi-instance/leftovers.setup.ts).
 */
export async function stopLeftoverTraffic(): Promise<number> {
  const left = [...running];
  await Promise.all(left.map((traffic) => traffic.stop()));
  return left.length;
}
