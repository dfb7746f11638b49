import { SaxesParser } from "saxes";

/** An element of a parsed XML document: name, attributes, child elements and text. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

/**
 * Parses an XML 1.0 document with saxes, a conformant non-validating parser: anything that is
 * not well-formed (unbalanced tags, bad escapes, characters XML forbids) throws with the
 * parser's messages. Returns the root element.
 */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const errors: string[] = [];
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on("error", (error) => errors.push(error.message));
  parser.on("opentag", (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      text: "",
    };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    if (!tag.isSelfClosing) stack.push(element);
  });
  parser.on("closetag", (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on("text", (text) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  });
  parser.write(xml).close();
  if (errors.length > 0) throw new Error(`not well-formed XML: ${errors.join("; ")}`);
  if (root === undefined) throw new Error("no root element");
  return root;
}
