import type { Server } from 'node:http';

/**
 * Stops accepting connections and waits for requests in flight; idle keep-alive connections are closed at
 * once, and whatever is still running after `timeoutMs` is cut off so shutdown always ends.
 */
export async function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearTimeout(deadline);
  }
}
