import { create, fromBinary, fromJsonString, toBinary, toJsonString } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { NameResponseSchema, SupportsRequestSchema } from "@costplugin/proto";
import type { CheckVerdict } from "../check-result.js";
import { fail, pass } from "../check-result.js";
import type { PluginCheck, ProtocolCheck, RunContext } from "../conformance-check.js";
import type { ProtocolSession } from "../protocol-session.js";
import type { RawResponse } from "../raw-request.js";
import { sendRawRequest } from "../raw-request.js";
import { describeError } from "../rpc-outcome.js";
import { descriptorFromFixture, unknownResource } from "../session-calls.js";
import type { RawRpcPayload } from "../wire-format.js";
import { envelope, rawRpcOutcome, rawRpcRequest } from "../wire-format.js";

const namePath = "/costplugin.v1.CostSourceService/Name";
const supportsPath = "/costplugin.v1.CostSourceService/Supports";
/** Bytes no protobuf or JSON parser accepts: an over-long varint, invalid UTF-8. */
const garbage = new Uint8Array(64).fill(0xff);

/** After a hostile request: the plugin must still answer Name in the same protocol. */
async function stillServing(
  session: ProtocolSession,
  before: string,
): Promise<CheckVerdict | undefined> {
  try {
    await session.costSource.name({}, session.callOptions);
    return undefined;
  } catch (error) {
    return fail(
      `Name still answers after ${before}`,
      `Name failed afterwards: ${describeError(ConnectError.from(error))}`,
    );
  }
}

/** A raw exchange that got no answer, and whether the connection was reset under it. */
interface NoAnswer {
  readonly error: string;
  readonly reset: boolean;
}

const resetCodes = new Set(["EPIPE", "ECONNRESET"]);

async function send(
  request: Parameters<typeof sendRawRequest>[0],
): Promise<RawResponse | NoAnswer> {
  try {
    return await sendRawRequest(request);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: (error as Error).message, reset: code !== undefined && resetCodes.has(code) };
  }
}

/** `robustness.unknown-method`. */
export const unknownMethodCheck: ProtocolCheck = {
  id: "robustness.unknown-method",
  level: "standard",
  scope: "protocol",
  description:
    "A call to a method the service does not have fails with unimplemented (or HTTP 404), and the plugin keeps serving.",
  async run(session, context) {
    const response = await send(
      rawRpcRequest(session.protocol, {
        baseUrl: context.baseUrl,
        path: "/costplugin.v1.CostSourceService/ConformanceNoSuchMethod",
        httpVersion: session.httpVersion,
        timeoutMs: context.options.timeouts.callMs,
      }),
    );
    const expected = "unimplemented (or HTTP 404)";
    if ("error" in response) return fail(expected, `no response: ${response.error}`);
    const outcome = rawRpcOutcome(session.protocol, response);
    if (
      outcome.kind !== "error" ||
      (outcome.code !== "unimplemented" && outcome.code !== "http 404")
    ) {
      return fail(expected, outcome.summary);
    }
    return (await stillServing(session, "an unknown method")) ?? pass(outcome.summary);
  },
};

/** `robustness.unsupported-content-type`. */
export const unsupportedContentTypeCheck: PluginCheck = {
  id: "robustness.unsupported-content-type",
  level: "standard",
  scope: "plugin",
  description:
    "A request with a content type no protocol uses (text/plain) is answered HTTP 415, and the plugin keeps serving.",
  async run(context) {
    const sessions = [...context.sessions.values()];
    const session = sessions.find((candidate) => candidate.httpVersion === "1.1") ?? sessions[0];
    if (session === undefined) return fail("a protocol to send it with", "no protocol answered");
    const response = await send({
      baseUrl: context.baseUrl,
      path: namePath,
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: new TextEncoder().encode("what is your name?"),
      httpVersion: session.httpVersion,
      timeoutMs: context.options.timeouts.callMs,
    });
    if ("error" in response) return fail("HTTP 415", `no response: ${response.error}`);
    if (response.status !== 415) {
      return fail(
        "HTTP 415",
        `HTTP ${response.status} (${response.headers["content-type"] ?? "no content type"})`,
      );
    }
    return (
      (await stillServing(session, "an unsupported content type")) ??
      pass(`over HTTP/${session.httpVersion}`)
    );
  },
};

/** `robustness.connect-get`. */
export const connectGetCheck: ProtocolCheck = {
  id: "robustness.connect-get",
  level: "standard",
  scope: "protocol",
  protocols: ["connect-json", "connect-binary"],
  description:
    "Connect GET works for side-effect-free RPCs: GET /costplugin.v1.CostSourceService/Name?connect=v1&encoding=... answers the name.",
  async run(session, context) {
    const json = session.protocol === "connect-json";
    const query = json
      ? "connect=v1&encoding=json&message=%7B%7D"
      : "connect=v1&encoding=proto&base64=1&message=";
    const response = await send({
      baseUrl: context.baseUrl,
      path: `${namePath}?${query}`,
      method: "GET",
      headers: {},
      httpVersion: session.httpVersion,
      timeoutMs: context.options.timeouts.callMs,
    });
    const expected = `HTTP 200 with a ${json ? "JSON" : "binary"} NameResponse`;
    if ("error" in response) return fail(expected, `no response: ${response.error}`);
    const contentType = response.headers["content-type"] ?? "";
    if (response.status !== 200) {
      return fail(
        expected,
        `HTTP ${response.status} (${contentType}) ${response.body.toString("utf8").slice(0, 200)}`,
      );
    }
    try {
      const message = json
        ? fromJsonString(NameResponseSchema, response.body.toString("utf8"), {
            ignoreUnknownFields: true,
          })
        : fromBinary(NameResponseSchema, response.body);
      if (message.name.trim() === "") return fail(expected, "an empty name");
      return pass(`name ${JSON.stringify(message.name)}`);
    } catch (error) {
      return fail(expected, `an undecodable body (${contentType}): ${(error as Error).message}`);
    }
  },
};

let oversizedCache: { readonly size: number; readonly payload: RawRpcPayload } | undefined;

/** A valid SupportsRequest padded with a tag to the configured size (built once per size). */
function oversizedPayload(context: RunContext): RawRpcPayload {
  const size = context.options.oversizedMessageBytes;
  if (oversizedCache?.size !== size) {
    const fixture = context.options.fixtures.resources[0];
    const resource = fixture ? descriptorFromFixture(fixture) : { ...unknownResource };
    const request = create(SupportsRequestSchema, {
      resource: { ...resource, tags: { ...resource.tags, conformance_padding: "x".repeat(size) } },
    });
    oversizedCache = {
      size,
      payload: {
        binary: toBinary(SupportsRequestSchema, request),
        json: toJsonString(SupportsRequestSchema, request),
      },
    };
  }
  return oversizedCache.payload;
}

/** Attempts of the oversized exchange when the connection is reset before any answer. */
const oversizedAttempts = 3;

/** `robustness.oversized-message`. */
export const oversizedMessageCheck: ProtocolCheck = {
  id: "robustness.oversized-message",
  level: "standard",
  scope: "protocol",
  description:
    "A well-formed request larger than a plugin should accept (5 MiB by default) gets an error (resource_exhausted preferred), and the plugin keeps serving.",
  async run(session, context) {
    const expected = `an error for a ${context.options.oversizedMessageBytes}-byte message`;
    // A server that answers early and then closes with the body unread resets the connection,
    // and the reset may erase its answer before the kit reads it (RFC 9112, section 9.6). That
    // is a matter of timing: try again on a fresh connection rather than judge by chance.
    let lostAnswers = 0;
    let response: RawResponse | NoAnswer | undefined;
    for (let attempt = 1; attempt <= oversizedAttempts; attempt++) {
      response = await send(
        rawRpcRequest(session.protocol, {
          baseUrl: context.baseUrl,
          path: supportsPath,
          payload: oversizedPayload(context),
          httpVersion: session.httpVersion,
          timeoutMs: context.options.timeouts.callMs,
        }),
      );
      if (!("error" in response) || !response.reset) break;
      lostAnswers++;
    }
    if (response === undefined || "error" in response) {
      const actual =
        lostAnswers === oversizedAttempts
          ? `no response in ${oversizedAttempts} attempts: the connection was reset before any answer could be read (${response?.error}); a server that refuses a body early should answer, then close in stages (RFC 9112, section 9.6)`
          : `no response: ${response?.error}`;
      return fail(expected, actual);
    }
    const outcome = rawRpcOutcome(session.protocol, response);
    if (outcome.kind !== "error") return fail(expected, outcome.summary);
    const note =
      lostAnswers > 0
        ? `${outcome.summary} (${lostAnswers} earlier attempt${lostAnswers === 1 ? "" : "s"} lost the answer to a connection reset)`
        : outcome.summary;
    return (
      (await stillServing(session, "an oversized message")) ??
      pass(note, lostAnswers > 0 ? { attempts: lostAnswers + 1, lostAnswers } : undefined)
    );
  },
};

/** `robustness.garbage-bytes`. */
export const garbageBytesCheck: ProtocolCheck = {
  id: "robustness.garbage-bytes",
  level: "basic",
  scope: "protocol",
  description:
    "A request whose body is garbage (bytes no protobuf or JSON parser accepts) gets a well-formed error of the protocol, and the plugin keeps serving.",
  async run(session, context) {
    const framed = session.protocol === "grpc" || session.protocol === "grpc-web";
    const response = await send(
      rawRpcRequest(session.protocol, {
        baseUrl: context.baseUrl,
        path: supportsPath,
        body: framed ? envelope(garbage) : garbage,
        httpVersion: session.httpVersion,
        timeoutMs: context.options.timeouts.callMs,
      }),
    );
    const expected = "a well-formed error response";
    if ("error" in response) return fail(expected, `no response: ${response.error}`);
    const outcome = rawRpcOutcome(session.protocol, response);
    if (outcome.kind !== "error") return fail(expected, outcome.summary);
    return (await stillServing(session, "garbage bytes")) ?? pass(outcome.summary);
  },
};
