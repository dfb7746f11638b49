import { type TSchema, Type } from "typebox";
import { defaultPageLimit, maxPageLimit } from "../pagination.js";

/** A resource id in a path. */
export const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

/** `limit` and `cursor`, accepted by every list. */
export const pageQueryProperties = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxPageLimit,
      default: defaultPageLimit,
      description: `Items per page (1-${maxPageLimit}, default ${defaultPageLimit}).`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 512, description: "`next_cursor` of the previous page." }),
  ),
};

/** The query of a list without filters. */
export const PageQuery = Type.Object(pageQueryProperties, { additionalProperties: false });

/** The body of a page of `item`. */
export function PageOf<T extends TSchema>(item: T, name: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description: "Cursor of the next page; null on the last page. Also in the `Link` header.",
      }),
    },
    { additionalProperties: false, title: name },
  );
}

/** An RFC 9457 problem document. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: "urn:costplugin:problem:<name>" }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    request_id: Type.String(),
  },
  { additionalProperties: true, title: "Problem" },
);

/** ISO 8601 timestamp in UTC. */
export const Timestamp = Type.String({ format: "date-time" });

/** A value that may be null. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** The problem responses every authenticated route can answer. */
export function problemResponses(...statuses: number[]): Record<number, typeof ProblemSchema> {
  const out: Record<number, typeof ProblemSchema> = {};
  for (const s of [400, 401, 403, 429, 500, ...statuses]) out[s] = ProblemSchema;
  return out;
}
