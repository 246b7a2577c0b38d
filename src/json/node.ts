/**
 * Where each value of a parsed JSON text stands in that text, so a rewrite can copy the spelling
 * of everything it did not change. Offsets are UTF-16 indexes into the text.
 */
export type JsonNode = LeafNode | ObjectNode | ArrayNode;

export type Scalar = string | number | boolean | null;

interface Span {
  /** First character of the value. */
  start: number;
  /** One past its last character. */
  end: number;
  /** The container this value sits in, and its place there (member or item index). */
  parent: ObjectNode | ArrayNode | undefined;
  index: number;
  /** For an object member: its key, and where the key's opening quote stands (the member runs from there to `end`). */
  key: string | undefined;
  keyStart: number;
}

export interface LeafNode extends Span {
  kind: 'leaf';
  value: Scalar;
}

export interface ObjectNode extends Span {
  kind: 'object';
  /** Every member's value as written, duplicate keys included, in text order. */
  members: JsonNode[];
  value: Record<string, unknown>;
}

export interface ArrayNode extends Span {
  kind: 'array';
  items: JsonNode[];
  value: unknown[];
}

export type ContainerNode = ObjectNode | ArrayNode;
