import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from './lib/service';

/**
 * `WORKERS=2 node dist/bench/cluster.js`: the service's own entry point (dist/src/main.js) in
 * WORKERS processes behind one port, with node:cluster (the primary accepts connections and hands
 * them to the workers round-robin). Each worker has its own database connection and its own
 * in-memory rate-limit counters unless REDIS_URL is set.
 */
const workers = Math.max(
  1,
  Number(process.env.WORKERS ?? availableParallelism()),
);
let stopping = false;

cluster.setupPrimary({
  exec: join(__dirname, '..', 'src', 'main.js'),
  // As `npm run start:prod` runs it.
  execArgv: SERVICE_NODE_FLAGS,
  silent: false,
});
for (let i = 0; i < workers; i++) cluster.fork();

cluster.on('exit', (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    return;
  }
  console.error(
    `worker ${worker.process.pid} exited (${signal ?? code}); stopping`,
  );
  stopping = true;
  for (const other of Object.values(cluster.workers ?? {}))
    other?.kill('SIGTERM');
  process.exitCode = 1;
});

const stop = () => {
  if (stopping) return;
  stopping = true;
  const alive = Object.values(cluster.workers ?? {});
  if (alive.length === 0) process.exit(0);
  for (const worker of alive) worker?.kill('SIGTERM');
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
