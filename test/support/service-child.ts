/**
 * A second service process, as a second Lambda container is: the real local server with its own memory,
 * configured by the environment its parent gives it, announcing its URL over the IPC channel.
 */
const { startLocalServer } = await import('../../lib/local/server.js');
const local = await startLocalServer({ port: 0, host: '127.0.0.1' });
process.send?.({ url: local.url });
process.on('disconnect', () => {
  void local.close().then(() => process.exit(0));
});
