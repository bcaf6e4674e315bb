/**
 * The cold-start baseline: a handler that does nothing, bundled by the same construct with the same
 * options as the real ones, so that what it costs is the runtime's share of every cold start.
 */
export const handler = async () => ({ statusCode: 200, body: '' });
