import type { IncomingHttpHeaders } from "node:http";

/**
 * A WHATWG `Headers` whose entries are put in on first use: creating one costs about as much as
 * `new Headers()`, and a call that never looks at its headers never pays for filling them.
 * Subclasses say what goes in (`load`); every method loads first, then behaves as `Headers`.
 */
export abstract class DeferredHeaders extends Headers {
  #pending = true;

  /** Puts the initial entries in, once. */
  protected abstract load(append: (name: string, value: string) => void): void;

  /** Whether the entries were put in (something used the headers). */
  get loaded(): boolean {
    return !this.#pending;
  }

  /** Puts the initial entries in unless done already. */
  protected ensure(): void {
    if (!this.#pending) return;
    this.#pending = false;
    this.load((name, value) => super.append(name, value));
  }

  override get(name: string): string | null {
    this.ensure();
    return super.get(name);
  }

  override has(name: string): boolean {
    this.ensure();
    return super.has(name);
  }

  override append(name: string, value: string): void {
    this.ensure();
    super.append(name, value);
  }

  override set(name: string, value: string): void {
    this.ensure();
    super.set(name, value);
  }

  override delete(name: string): void {
    this.ensure();
    super.delete(name);
  }

  override getSetCookie(): string[] {
    this.ensure();
    return super.getSetCookie();
  }

  override forEach(
    callback: (value: string, key: string, parent: Headers) => void,
    thisArg?: unknown,
  ): void {
    this.ensure();
    super.forEach(callback, thisArg);
  }

  override entries(): ReturnType<Headers["entries"]> {
    this.ensure();
    return super.entries();
  }

  override keys(): ReturnType<Headers["keys"]> {
    this.ensure();
    return super.keys();
  }

  override values(): ReturnType<Headers["values"]> {
    this.ensure();
    return super.values();
  }

  override [Symbol.iterator](): ReturnType<Headers["entries"]> {
    this.ensure();
    return super[Symbol.iterator]();
  }
}

/**
 * Response headers or trailers of a call, starting with what Connect puts in first
 * (`content-type`, `grpc-status: 0`, ...). A response whose headers nobody touched is written
 * from `defaults` without ever filling the `Headers`.
 */
export class ResponseHeaders extends DeferredHeaders {
  /** The entries the headers start with. */
  readonly defaults: ReadonlyArray<readonly [string, string]>;

  constructor(defaults: ReadonlyArray<readonly [string, string]>) {
    super();
    this.defaults = defaults;
  }

  protected override load(append: (name: string, value: string) => void): void {
    for (const [name, value] of this.defaults) append(name, value);
  }
}

/** Header names `get` and `has` answer straight from Node's object (lowercase tokens). */
const plainName = /^[a-z0-9-]+$/;

/**
 * The request headers of a call as Connect presents them to interceptors and handlers, built
 * from Node's header object only when something iterates or changes them. `get` and `has` of a
 * plain name read Node's object directly, which is all most calls do (the metrics interceptor
 * reads `content-type`); anything else first copies the headers exactly as connect-node does
 * (pseudo-headers left out, repeated values appended).
 */
export class NodeRequestHeaders extends DeferredHeaders {
  readonly #source: IncomingHttpHeaders;

  /** Wraps Node's header object of one request; the object must not change afterwards. */
  constructor(source: IncomingHttpHeaders) {
    super();
    this.#source = source;
  }

  protected override load(append: (name: string, value: string) => void): void {
    const source = this.#source;
    for (const name in source) {
      if (name.startsWith(":")) continue;
      const value: unknown = source[name];
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        for (const item of value) append(name, String(item));
      } else {
        append(name, String(value));
      }
    }
  }

  /** A value found without copying, or undefined when the full list must answer. */
  #direct(name: string): string | null | undefined {
    if (this.loaded) return undefined;
    const key = name.toLowerCase();
    if (!plainName.test(key)) return undefined;
    const value: unknown = this.#source[key];
    if (value === undefined) return null;
    // Headers trims HTTP whitespace; such values (and lists) take the full path.
    if (typeof value !== "string" || value.length === 0) return undefined;
    if (value.charCodeAt(0) <= 0x20 || value.charCodeAt(value.length - 1) <= 0x20) return undefined;
    return value;
  }

  override get(name: string): string | null {
    const direct = this.#direct(name);
    return direct === undefined ? super.get(name) : direct;
  }

  override has(name: string): boolean {
    const direct = this.#direct(name);
    return direct === undefined ? super.has(name) : direct !== null;
  }
}
