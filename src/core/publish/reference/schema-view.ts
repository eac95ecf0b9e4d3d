/**
 * JSON Schemas of the OpenAPI document as trees a person can read: `$ref`s resolved, `allOf`
 * merged (so a problem pinned to `status: 400` shows one `status` field), `oneOf` / `anyOf` as
 * named variants, and the constraints (enum, pattern, bounds, default) in words.
 * @module
 */

export type JsonSchema = Record<string, unknown>;

/** One schema, ready to render. */
export interface SchemaNode {
  /** What the value is: `string`, `integer`, `array of object`, `"accepted"` (a constant)... */
  type: string;
  /** CommonMark, inline. */
  description?: string;
  /** Constraints in words: `one of: a, b`, `pattern ^agt_`, `1–100 characters`, `default 10`. */
  constraints: string[];
  /** Members of an object. */
  fields?: SchemaField[];
  /** The element schema of an array, when it has structure worth showing (an object or variants). */
  items?: SchemaNode;
  /** Alternatives of `oneOf` / `anyOf`. */
  variants?: { title: string; node: SchemaNode }[];
}

export interface SchemaField {
  name: string;
  required: boolean;
  node: SchemaNode;
}

/** Nesting beyond this depth is cut (the document has no deeper structure; a guard against cycles). */
const MAX_DEPTH = 8;

/** Follows `$ref`s into `doc` (local references only, as the document uses). */
export function resolveRef(schema: JsonSchema, doc: JsonSchema, seen: ReadonlySet<string> = new Set()): JsonSchema {
  let current = schema;
  const visited = new Set(seen);
  while (typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (visited.has(ref) || !ref.startsWith('#/')) return { description: `See ${ref}.` };
    visited.add(ref);
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/'))
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (typeof target !== 'object' || target === null) return { description: `Unresolved ${ref}.` };
    const { $ref: _ref, ...siblings } = current;
    current = { ...(target as JsonSchema), ...siblings };
  }
  return current;
}

/** Merges the `allOf` parts of a schema into one schema (deeply for `properties`). */
export function mergeAllOf(schema: JsonSchema, doc: JsonSchema, depth = 0): JsonSchema {
  const resolved = resolveRef(schema, doc);
  if (!Array.isArray(resolved.allOf) || depth > MAX_DEPTH) return resolved;
  const { allOf, ...rest } = resolved;
  return (allOf as JsonSchema[]).reduce<JsonSchema>((merged, part) => mergeTwo(merged, mergeAllOf(part, doc, depth + 1), doc, depth), rest);
}

function mergeTwo(a: JsonSchema, b: JsonSchema, doc: JsonSchema, depth: number): JsonSchema {
  const out: JsonSchema = { ...a, ...b };
  if (a.description && b.description === undefined) out.description = a.description;
  if (a.properties || b.properties) {
    const props: Record<string, JsonSchema> = { ...((a.properties as Record<string, JsonSchema>) ?? {}) };
    for (const [name, schema] of Object.entries((b.properties as Record<string, JsonSchema>) ?? {})) {
      props[name] = props[name]
        ? mergeTwo(mergeAllOf(props[name]!, doc, depth + 1), mergeAllOf(schema, doc, depth + 1), doc, depth + 1)
        : schema;
    }
    out.properties = props;
  }
  if (a.required || b.required) out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  // A pinned value (const or a narrower enum) replaces the open type it narrows.
  if (b.const !== undefined) delete out.enum;
  return out;
}

const literal = (value: unknown): string => JSON.stringify(value);

/** The type label of a (merged) schema. */
function typeLabel(schema: JsonSchema, node: SchemaNode): string {
  if (schema.const !== undefined) return literal(schema.const);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) {
    if (schema.properties) types.push('object');
    else if (Array.isArray(schema.enum)) types.push(typeof schema.enum[0] === 'number' ? 'integer' : 'string');
    else if (node.variants) return 'one of';
    else return 'any';
  }
  const label = types
    .map((type) => {
      if (type === 'array') return node.items ? `array of ${node.items.type}` : `array of ${itemLabel(schema.items)}`;
      return type;
    })
    .join(' or ');
  return typeof schema.format === 'string' ? `${label} (${schema.format})` : label;
}

function itemLabel(items: unknown): string {
  if (typeof items !== 'object' || items === null) return 'any';
  const schema = items as JsonSchema;
  if (schema.const !== undefined) return literal(schema.const);
  if (Array.isArray(schema.enum)) return 'string';
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  const items = (typeof schema.items === 'object' && schema.items !== null ? schema.items : {}) as JsonSchema;
  const values = Array.isArray(schema.enum) ? schema.enum : Array.isArray(items.enum) ? items.enum : undefined;
  if (values) out.push(`one of: ${values.map(literal).join(', ')}`);
  if (items.const !== undefined) out.push(`each ${literal(items.const)}`);
  const range = (min: unknown, max: unknown, unit: string): void => {
    if (typeof min === 'number' && typeof max === 'number') out.push(min === max ? `exactly ${min}${unit}` : `${min}–${max}${unit}`);
    else if (typeof min === 'number') out.push(`at least ${min}${unit}`);
    else if (typeof max === 'number') out.push(`at most ${max}${unit}`);
  };
  range(schema.minimum, schema.maximum, '');
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minItems, schema.maxItems, ' items');
  if (schema.maxProperties === 0) out.push('an empty object');
  if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`);
  if (typeof items.pattern === 'string') out.push(`each matches ${items.pattern}`);
  if (schema.default !== undefined) out.push(`default ${literal(schema.default)}`);
  if (Array.isArray(schema.examples) && !values) out.push(`e.g. ${schema.examples.map(literal).join(', ')}`);
  return out;
}

/** A readable tree of `schema` (resolved against `doc`). */
export function schemaView(schema: JsonSchema, doc: JsonSchema, depth = 0): SchemaNode {
  const merged = mergeAllOf(schema, doc);
  const node: SchemaNode = { type: '', constraints: [] };
  if (typeof merged.description === 'string' && merged.description) node.description = merged.description;
  if (depth < MAX_DEPTH) {
    const alternatives = (merged.oneOf ?? merged.anyOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives)) {
      node.variants = alternatives.map((alternative, i) => {
        const child = schemaView(alternative, doc, depth + 1);
        return { title: variantTitle(alternative, doc, child, i), node: child };
      });
    }
    if (merged.properties) {
      const required = new Set((merged.required as string[] | undefined) ?? []);
      node.fields = Object.entries(merged.properties as Record<string, JsonSchema>).map(([name, property]) => ({
        name,
        required: required.has(name),
        node: schemaView(property, doc, depth + 1),
      }));
    }
    if (merged.items && typeof merged.items === 'object') {
      const items = mergeAllOf(merged.items as JsonSchema, doc);
      if (items.properties || items.oneOf || items.anyOf) node.items = schemaView(items, doc, depth + 1);
    }
  }
  node.type = typeLabel(merged, node);
  node.constraints = constraintsOf(merged);
  return node;
}

/** A variant's name: its `title`, the referenced component's name, or what pins it (`status: "claimed"`). */
function variantTitle(alternative: JsonSchema, doc: JsonSchema, node: SchemaNode, index: number): string {
  const merged = mergeAllOf(alternative, doc);
  if (typeof merged.title === 'string') return merged.title;
  if (typeof alternative.$ref === 'string') return alternative.$ref.split('/').pop()!;
  const pinned = node.fields?.find((field) => /^["\d-]/.test(field.node.type));
  if (pinned) return `${pinned.name}: ${pinned.node.type}`;
  const parts = Array.isArray(alternative.allOf) ? (alternative.allOf as JsonSchema[]) : [];
  const ref = parts.find((part) => typeof part.$ref === 'string')?.$ref as string | undefined;
  if (ref) return ref.split('/').pop()!;
  return `Variant ${index + 1}`;
}
