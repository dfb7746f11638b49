import type { Interceptor } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Clock } from "./clock.js";
import type { RpcMetrics, RpcSeries } from "./rpc-metrics.js";
import { codeLabel, isServerFault } from "./rpc-outcome.js";
import type { RpcProtocol } from "./rpc-protocol.js";
import { protocolFromContentType } from "./rpc-protocol.js";
import type { SliWindow } from "./sli-window.js";

/** Options of `createRpcInterceptor`. */
export interface RpcInterceptorOptions {
  /** The metrics to update. */
  readonly metrics: RpcMetrics;
  /** The SLI window fed with RPCs of `sliServices`. */
  readonly sliWindow: SliWindow;
  /** Fully-qualified services whose RPCs count toward the SLIs. */
  readonly sliServices: ReadonlySet<string>;
  /** Time source for durations and SLI bucket placement. */
  readonly clock: Clock;
}

/**
 * A server-side Connect interceptor measuring every RPC: requests by code, duration and
 * in-flight count in the metrics, and outcome plus duration in the SLI window. A unary RPC ends
 * when its handler returns or throws; a streaming RPC when its last response message was taken
 * or the stream failed. The code is the ConnectError's (any other exception is `internal`, as
 * Connect answers it), `ok` otherwise; canceled RPCs are left out of the SLIs.
 */
export function createRpcInterceptor(options: RpcInterceptorOptions): Interceptor {
  const { metrics, sliWindow, sliServices, clock } = options;
  // Per method descriptor and protocol, so a call looks its series up without building a key.
  const seriesByMethod = new WeakMap<object, Partial<Record<RpcProtocol, RpcSeries>>>();
  return (next) => async (req) => {
    const protocol = protocolFromContentType(req.header.get("content-type"));
    let byProtocol = seriesByMethod.get(req.method);
    if (byProtocol === undefined) {
      byProtocol = {};
      seriesByMethod.set(req.method, byProtocol);
    }
    let series = byProtocol[protocol];
    if (series === undefined) {
      series = metrics.series(req.service.typeName, req.method.name, protocol);
      byProtocol[protocol] = series;
    }
    const measured = series;
    const inSli = sliServices.has(req.service.typeName);
    const startedMs = clock.now();
    measured.started();
    let finished = false;
    const finish = (code: Code | undefined) => {
      if (finished) return;
      finished = true;
      const endedMs = clock.now();
      const seconds = Math.max(0, (endedMs - startedMs) / 1000);
      measured.finished(codeLabel(code), seconds);
      if (inSli && code !== Code.Canceled) {
        sliWindow.record(endedMs, isServerFault(code), seconds);
      }
    };
    let res: Awaited<ReturnType<typeof next>>;
    try {
      res = await next(req);
    } catch (error) {
      finish(codeOf(error));
      throw error;
    }
    if (!res.stream) {
      finish(undefined);
      return res;
    }
    return { ...res, message: measureStream(res.message, finish, req.signal) };
  };
}

function codeOf(error: unknown): Code {
  return error instanceof ConnectError ? error.code : Code.Internal;
}

async function* measureStream<T>(
  messages: AsyncIterable<T>,
  finish: (code: Code | undefined) => void,
  signal: AbortSignal,
): AsyncIterable<T> {
  try {
    yield* messages;
    finish(signal.aborted ? ConnectError.from(signal.reason, Code.Canceled).code : undefined);
  } catch (error) {
    finish(codeOf(error));
    throw error;
  } finally {
    // Reached without a code when the consumer stopped early (the caller went away).
    finish(Code.Canceled);
  }
}
