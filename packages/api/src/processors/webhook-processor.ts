import { createHmac } from "node:crypto";
import type { RetryOptions } from "../api-options.js";
import type { Clock } from "../clock.js";
import { redactSecrets } from "../models/http-json.js";
import { withRetry } from "../retry.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import type { Processor } from "./processor.js";

/** Configuration of the webhook processor. */
export interface WebhookProcessorConfig {
  /** Whether tasks may use it. Default false. */
  readonly enabled: boolean;
  /** Where each response is POSTed. */
  readonly url: string | null;
  /** HMAC-SHA256 key; write-only through the API. */
  readonly secret?: string;
  /** Delivery attempts in total for transient failures. Default 3. */
  readonly max_attempts: number;
  /** Time-out of one attempt in milliseconds. Default 10000. */
  readonly timeout_ms: number;
}

/** Header carrying `sha256=<hex>` of HMAC-SHA256(secret, `<timestamp>.<body>`). */
export const signatureHeader = "x-costplugin-signature";
/** Header carrying the Unix time (seconds) that the signature covers. */
export const timestampHeader = "x-costplugin-timestamp";

/** Computes the signature header value for a delivery. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

class DeliveryError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/**
 * The webhook processor: POSTs the response as JSON with an HMAC signature over timestamp and
 * body; network errors, time-outs, 408, 429 and 5xx are retried with exponential backoff.
 */
export function createWebhookProcessor(
  fetchImpl: typeof fetch,
  clock: Clock,
  retry: Omit<RetryOptions, "maxAttempts">,
): Processor<WebhookProcessorConfig> {
  return {
    type: "webhook",
    description:
      "POSTs each response as JSON to a URL, signed with HMAC-SHA256, retried with backoff.",
    defaults: { enabled: false, url: null, max_attempts: 3, timeout_ms: 10_000 },
    async process(response: ResponseRecord, config) {
      if (!config.url || !config.secret) throw new Error("webhook url or secret is not configured");
      const url = config.url;
      const secret = config.secret;
      const body = JSON.stringify(response);
      // Errors are shown to every role: keep the secret and the URL's path (which may carry a
      // credential of its own) out of them.
      const { pathname, search } = new URL(url);
      const hidden = [secret, url, `${pathname}${search}`].filter((text) => text.length > 1);
      let attempts = 0;
      const status = await withRetry(
        { ...retry, maxAttempts: config.max_attempts },
        (error) => error instanceof DeliveryError && error.transient,
        async () => {
          attempts++;
          const timestamp = Math.floor(clock.now().getTime() / 1000);
          let answer: Response;
          try {
            answer = await fetchImpl(url, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "user-agent": "costplugin-webhook/1",
                "x-costplugin-event": "response.completed",
                "x-costplugin-delivery": response.id,
                [timestampHeader]: String(timestamp),
                [signatureHeader]: signWebhook(secret, timestamp, body),
              },
              body,
              redirect: "error",
              signal: AbortSignal.timeout(config.timeout_ms),
            });
            await answer.arrayBuffer();
          } catch (error) {
            const e = error as Error;
            const why =
              e.name === "TimeoutError"
                ? `no answer within ${config.timeout_ms} ms`
                : ((e.cause as Error | undefined)?.message ?? e.message);
            throw new DeliveryError(`webhook delivery failed: ${redactSecrets(why, hidden)}`, true);
          }
          if (!answer.ok) {
            const transient =
              answer.status === 408 || answer.status === 429 || answer.status >= 500;
            throw new DeliveryError(`webhook answered HTTP ${answer.status}`, transient);
          }
          return answer.status;
        },
      ).catch((error: Error) => {
        throw Object.assign(
          new Error(`${error.message} (after ${attempts} attempt${attempts === 1 ? "" : "s"})`),
          { attempts },
        );
      });
      return { detail: `HTTP ${status}`, attempts };
    },
  };
}
