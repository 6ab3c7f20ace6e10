import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * `node --require dist/bench/profile-preload.js dist/src/main.js` with BENCH_PROFILE_FILE set:
 * the first SIGWINCH starts the CPU profiler, the second stops it and writes a DevTools
 * `.cpuprofile`. So the profile covers the timed load only, and a server stopped by SIGTERM,
 * which dies before `--cpu-prof` can write its file, still leaves one. (SIGWINCH because Nest's
 * shutdown hooks take SIGUSR2, and Node's inspector SIGUSR1.)
 */
const file = process.env.BENCH_PROFILE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on('SIGWINCH', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: 250 }, () =>
          session.post('Profiler.start', () =>
            process.stdout.write('profiler started\n'),
          ),
        ),
      );
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(file, JSON.stringify(result.profile));
      process.stdout.write(`profile written to ${file}\n`);
    });
  });
}
