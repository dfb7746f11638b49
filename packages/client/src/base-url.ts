/**
 * Checks a plugin's base URL once, where the client is created: an absolute `http:` or `https:`
 * URL without credentials (user:password in a URL would travel in every request line and end
 * up in proxy and browser logs; send credentials in a header through an interceptor instead).
 * Returns the URL without a trailing slash. Throws a RangeError otherwise; the message never
 * repeats the URL, which may hold a secret.
 */
export function parseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RangeError("baseUrl must be an absolute http: or https: URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RangeError(`baseUrl must use http: or https:, not ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new RangeError(
      "baseUrl must not contain credentials; send them in a header with an interceptor",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw new RangeError("baseUrl must not contain a query or a fragment");
  }
  return url.href.replace(/\/+$/, "");
}
