import Handlebars from "handlebars";
import { BadRequestError, withProblemExtensions } from "../errors.js";

/** A variable a prompt template declares. */
export interface PromptVariable {
  /** Name used as `{{name}}` in the template. */
  readonly name: string;
  /** What the value means, for people filling it in. */
  readonly description?: string;
  /** Value used when none is given; a variable without default is required. */
  readonly default?: unknown;
}

// An isolated environment: nothing registered globally by other code reaches prompts.
const handlebars = Handlebars.create();
handlebars.unregisterHelper("log");

// Helpers that keep the current context, and those that change it for their block.
const sameContextHelpers = new Set(["if", "unless"]);
const contextHelpers = new Set(["each", "with"]);
const allowedHelpers = new Set([...sameContextHelpers, ...contextHelpers, "lookup"]);

type Node = hbs.AST.Node;

function rootName(path: hbs.AST.PathExpression): string | undefined {
  if (path.data || path.depth > 0 || path.parts.length === 0) return undefined;
  if (path.original.startsWith("this") || path.original.startsWith(".")) return undefined;
  return path.parts[0];
}

interface Scan {
  readonly variables: Set<string>;
  readonly problems: string[];
}

function scanExpression(node: hbs.AST.Expression, root: boolean, scan: Scan): void {
  if (node.type === "PathExpression") {
    const name = rootName(node as hbs.AST.PathExpression);
    if (root && name !== undefined) scan.variables.add(name);
  } else if (node.type === "SubExpression") {
    const sub = node as hbs.AST.SubExpression;
    checkHelper(sub.path, scan);
    for (const p of sub.params) scanExpression(p, root, scan);
    for (const pair of sub.hash?.pairs ?? []) scanExpression(pair.value, root, scan);
  }
}

function checkHelper(path: hbs.AST.PathExpression, scan: Scan): string {
  const name = path.original;
  if (!allowedHelpers.has(name)) scan.problems.push(`unknown helper "${name}"`);
  return name;
}

function scanNode(node: Node, root: boolean, scan: Scan): void {
  switch (node.type) {
    case "Program":
      for (const s of (node as hbs.AST.Program).body) scanNode(s, root, scan);
      return;
    case "MustacheStatement": {
      const m = node as hbs.AST.MustacheStatement;
      const params = m.params ?? [];
      if (params.length > 0 || (m.hash?.pairs.length ?? 0) > 0) {
        checkHelper(m.path as hbs.AST.PathExpression, scan);
        for (const p of params) scanExpression(p, root, scan);
        for (const pair of m.hash?.pairs ?? []) scanExpression(pair.value, root, scan);
      } else {
        scanExpression(m.path as hbs.AST.Expression, root, scan);
      }
      return;
    }
    case "BlockStatement": {
      const b = node as hbs.AST.BlockStatement;
      const hasParams = b.params.length > 0;
      let keepsContext = false;
      if (hasParams) {
        const helper = checkHelper(b.path, scan);
        keepsContext = sameContextHelpers.has(helper);
        for (const p of b.params) scanExpression(p, root, scan);
      } else {
        // `{{#section}}...{{/section}}` iterates or enters the value of `section`.
        scanExpression(b.path, root, scan);
      }
      if (b.program) scanNode(b.program, root && keepsContext, scan);
      if (b.inverse) scanNode(b.inverse, root, scan);
      return;
    }
    case "PartialStatement":
    case "PartialBlockStatement":
      scan.problems.push("partials are not supported");
      return;
    case "DecoratorBlock":
    case "Decorator":
      scan.problems.push("decorators are not supported");
      return;
    default:
      return;
  }
}

/**
 * Parses `template` and checks it: only the `if`, `unless`, `each`, `with` and `lookup` helpers,
 * no partials, and every root variable declared. Returns the variables it uses; throws a 400
 * error naming what is wrong.
 */
export function checkPromptTemplate(
  template: string,
  declared: readonly PromptVariable[],
): string[] {
  let ast: hbs.AST.Program;
  try {
    ast = handlebars.parse(template);
  } catch (error) {
    throw new BadRequestError(
      `template does not parse: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  const scan: Scan = { variables: new Set(), problems: [] };
  scanNode(ast, true, scan);
  if (scan.problems.length > 0) {
    throw new BadRequestError(`template is not allowed: ${[...new Set(scan.problems)].join("; ")}`);
  }
  const names = new Set(declared.map((v) => v.name));
  const undeclared = [...scan.variables].filter((v) => !names.has(v)).sort();
  if (undeclared.length > 0) {
    throw withProblemExtensions(
      new BadRequestError(`template uses undeclared variables: ${undeclared.join(", ")}`),
      { undeclared_variables: undeclared },
    );
  }
  return [...scan.variables].sort();
}

/** The values a template is rendered with: given values over declared defaults. */
export function resolveVariables(
  declared: readonly PromptVariable[],
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const names = new Set(declared.map((v) => v.name));
  const unknown = Object.keys(given)
    .filter((k) => !names.has(k))
    .sort();
  if (unknown.length > 0) {
    throw withProblemExtensions(new BadRequestError(`unknown variables: ${unknown.join(", ")}`), {
      unknown_variables: unknown,
    });
  }
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const v of declared) {
    if (Object.hasOwn(given, v.name) && given[v.name] !== null) values[v.name] = given[v.name];
    else if (v.default !== undefined) values[v.name] = v.default;
    else missing.push(v.name);
  }
  if (missing.length > 0) {
    throw withProblemExtensions(
      new BadRequestError(`missing variables: ${missing.sort().join(", ")}`),
      { missing_variables: missing },
    );
  }
  return values;
}

/**
 * Renders `template` with Handlebars in strict mode, without HTML escaping (the output is a
 * prompt, not markup). A path that is absent from the values is a 400 error naming it.
 */
export function renderPromptTemplate(
  template: string,
  declared: readonly PromptVariable[],
  given: Readonly<Record<string, unknown>>,
): { rendered: string; variables: Record<string, unknown> } {
  checkPromptTemplate(template, declared);
  const variables = resolveVariables(declared, given);
  try {
    const render = handlebars.compile(template, { strict: true, noEscape: true });
    return { rendered: render(variables), variables };
  } catch (error) {
    const match = /"([^"]+)" not defined/.exec((error as Error).message);
    const name = match?.[1];
    if (name !== undefined) {
      throw withProblemExtensions(new BadRequestError(`missing variables: ${name}`), {
        missing_variables: [name],
      });
    }
    throw new BadRequestError(
      `template could not be rendered: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}
