import { killLeftoverServers } from './server-process';
import { stopLeftoverTraffic } from './traffic';

// After each file's own hooks (theirs are inside describe blocks, so they run first): whatever a
// file failed to stop (a traffic loop still sending, a server process still running) is stopped
// here, so that jest ends by itself once the last file has run, without `forceExit`. A file that
// passes leaves nothing; what is found is reported, so that a leak does not go unnoticed.
afterAll(async () => {
  const traffic = await stopLeftoverTraffic();
  const servers = await killLeftoverServers();
  if (traffic + servers > 0) {
    console.warn(
      `left running by this file, now stopped: ${traffic} traffic run(s), ${servers} server process(es)`,
    );
  }
});
