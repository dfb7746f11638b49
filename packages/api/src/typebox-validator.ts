import type { FastifySchemaCompiler } from "fastify";
import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import { Value } from "typebox/value";

type Validator = ReturnType<FastifySchemaCompiler<TSchema>>;

// Route schemas are module constants: compile each once per process, not once per app.
const compiled = new WeakMap<object, Map<string, Validator>>();

/**
 * Fastify's validator compiler for TypeBox schemas (the same contract as the one of
 * `@fastify/type-provider-typebox`, without loading that module's Ajv format plugins). Unknown
 * properties are refused, not removed; query strings and path parameters are converted to their
 * declared types first, bodies are not. Compiled checks are cached per schema and request part.
 */
export const typeBoxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const part = httpPart ?? "body";
  let byPart = compiled.get(schema);
  if (byPart === undefined) {
    byPart = new Map();
    compiled.set(schema, byPart);
  }
  const known = byPart.get(part);
  if (known !== undefined) return known;
  const check = Compile(schema);
  const validator: Validator = (value) => {
    const converted = part === "body" ? value : Value.Convert(schema, value);
    if (check.Check(converted)) return { value: converted };
    return { error: check.Errors(converted) as never };
  };
  byPart.set(part, validator);
  return validator;
};
