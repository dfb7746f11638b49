import { Code, ConnectError } from "@connectrpc/connect";

/**
 * Wraps a fetch function so that a request that never got an HTTP response (connection
 * refused, reset, DNS failure, offline browser) fails with `unavailable`, like connect-node
 * reports the same failures, instead of `unknown`: the retry policy and the circuit breaker
 * can then treat it as the transient failure it is. Aborts keep their own error (Connect turns
 * them into `canceled` or `deadline_exceeded`). The message is fetch's own ("Failed to fetch",
 * "fetch failed"), which names neither the URL nor any header.
 */
export function createNetworkErrorFetch(fetchFn: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    try {
      return await fetchFn(input, init);
    } catch (error) {
      if (init?.signal?.aborted === true || !(error instanceof TypeError)) throw error;
      throw new ConnectError(
        `network error: ${error.message}`,
        Code.Unavailable,
        undefined,
        undefined,
        error,
      );
    }
  };
}
