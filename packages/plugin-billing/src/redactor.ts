/** Replaces secret values in text before it leaves the process. */
export type Redactor = (text: string) => string;

/** What replaces a secret in output. */
export const redactedMark = "[REDACTED]";

/**
 * A redactor for the given secret values. It also masks their JSON- and URL-encoded forms
 * (a token in a query string or a JSON string) and any `Bearer <value>` credential, so a secret
 * cannot escape through an error message, a URL or a serialized object.
 */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    needles.add(secret);
    needles.add(encodeURIComponent(secret));
    needles.add(JSON.stringify(secret).slice(1, -1));
  }
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const needle of ordered) {
      if (out.includes(needle)) out = out.split(needle).join(redactedMark);
    }
    return out.replace(/(Bearer\s+)[^\s"',;]+/gi, `$1${redactedMark}`);
  };
}
