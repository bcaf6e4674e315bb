/**
 * The service in a process of its own, as a Lambda container is: the real local server (every route, the
 * real middleware and handlers) with its own memory, configured by the environment its parent gives it,
 * announcing its URL over the IPC channel and reporting its CPU time and memory, and the starts its
 * record sources' paces gave, when asked.
 */
import { serveCommands, usage } from './child-process.js';

// Config is read when the handlers load: the environment is already this process's own.
const { startLocalServer } = await import('../../lib/local/server.js');
const local = await startLocalServer({ port: 0, host: '127.0.0.1' });

/**
 * The starts this container's Crossref and DataCite paces gave (lib/pace/), and why their store did not
 * answer when it did not, for the tests of the deployment's pace.
 */
async function paceStarts() {
  const [{ crossrefPace }, { dataCitePace }] = await Promise.all([
    import('../../lib/citations/sources/crossref.js'),
    import('../../lib/citations/sources/datacite.js'),
  ]);
  return {
    crossref: crossrefPace.starts(),
    datacite: dataCitePace.starts(),
    storeFailures: [...crossrefPace.storeFailures(), ...dataCitePace.storeFailures()],
  };
}

serveCommands({ url: local.url }, { usage, paceStarts });
