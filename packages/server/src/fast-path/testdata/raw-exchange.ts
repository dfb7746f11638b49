import http from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import http2 from "node:http2";

/** One request exactly as it goes on the wire. */
export interface RawRequest {
  readonly http: "1.1" | "2";
  readonly method: "GET" | "POST";
  /** Path and query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

/** What came back, with nothing decoded beyond HTTP framing. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: Buffer;
  readonly trailers: Record<string, string | string[]>;
}

function plain(headers: IncomingHttpHeaders | http2.IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    out[name] = Array.isArray(value) ? value : String(value);
  }
  return out;
}

/** What a request that got no complete answer within the time limit yields. */
const noAnswer: RawResponse = { status: -1, headers: {}, body: Buffer.alloc(0), trailers: {} };

/**
 * Sends `request` to `baseUrl` over a fresh connection and collects the whole response; a
 * response that does not complete within `timeoutMs` yields status -1 (a server that hangs is a
 * difference like any other, not a stuck test).
 */
export function exchange(baseUrl: string, request: RawRequest, timeoutMs = 5_000): Promise<RawResponse> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<RawResponse>((resolve) => {
    timer = setTimeout(() => resolve(noAnswer), timeoutMs);
  });
  const answer = request.http === "2" ? exchange2(baseUrl, request) : exchange1(baseUrl, request);
  return Promise.race([answer, limit]).finally(() => clearTimeout(timer));
}

function exchange1(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(request.path, baseUrl), {
      method: request.method,
      headers: request.headers,
      agent: false,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: plain(res.headers),
          body: Buffer.concat(chunks),
          trailers: plain(res.trailers),
        }),
      );
    });
    req.end(request.body === undefined ? undefined : Buffer.from(request.body));
  });
}

function exchange2(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(baseUrl);
    session.on("error", reject);
    const stream = session.request({
      ":method": request.method,
      ":path": request.path,
      ...request.headers,
    }, { endStream: request.body === undefined });
    let status = 0;
    let headers: Record<string, string | string[]> = {};
    let trailers: Record<string, string | string[]> = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => {
      status = Number(h[":status"]);
      headers = plain(h);
    });
    stream.on("trailers", (t) => {
      trailers = plain(t);
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    // The answer is complete when the server ended its side, even while the request is still
    // being sent (a server may answer before reading everything).
    stream.on("end", () => {
      resolve({ status, headers, body: Buffer.concat(chunks), trailers });
      session.destroy();
    });
    if (request.body !== undefined) stream.end(Buffer.from(request.body));
  });
}
