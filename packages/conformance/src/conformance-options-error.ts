/** Thrown when conformance options, a `--resource` value or a fixtures file are invalid. */
export class ConformanceOptionsError extends Error {
  override readonly name = "ConformanceOptionsError";
}
