/**
 * The service under test, in a process of its own: the real local server (every route, the real
 * middleware and handlers), configured by the environment the parent passes, as a Lambda container is.
 */
import { serveCommands, usage } from './child.js';

// Config is read when the handlers load: the environment is already this process's own.
const { startLocalServer } = await import('../lib/local/server.js');
const local = await startLocalServer({ port: 0, host: '127.0.0.1' });

serveCommands({ url: local.url }, { usage });
