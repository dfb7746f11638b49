/** A failure the stand-in vendor produces on demand. */
export type VendorFault =
  /** Answer with this status (and optional body and headers) instead of the page. */
  | {
      readonly kind: "status";
      readonly status: number;
      readonly body?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Answer 429 with `Retry-After` and/or `x-rate-limit-reset` (now + `resetInSeconds`, epoch seconds). */
  | {
      readonly kind: "rate-limit";
      readonly retryAfterSeconds?: number;
      readonly resetInSeconds?: number;
    }
  /** Wait before answering normally (a slow vendor; a timeout when longer than the client's limit). */
  | { readonly kind: "delay"; readonly ms: number }
  /** Never answer; the connection stays open until the client gives up. */
  | { readonly kind: "hang" }
  /** Answer the page normally but with `links.next` set to `href`. */
  | { readonly kind: "next-link"; readonly href: string }
  /** Send the first half of the JSON body and end the response cleanly. */
  | { readonly kind: "truncate" }
  /** Send the first half of the body, then destroy the connection. */
  | { readonly kind: "disconnect" };

/** When a fault applies. */
export interface FaultRule {
  /** The fault. */
  readonly fault: VendorFault;
  /** How many matching requests it affects. Default 1. */
  times?: number;
  /** Only requests for this page number. Default: any page. */
  readonly page?: number;
}
