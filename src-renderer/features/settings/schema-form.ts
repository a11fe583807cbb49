/**
 * hearth.json's JSON Schema (config.schema: the server's zod schema through z.toJSONSchema) as form
 * fields. The server stays the judge of every save (config.patch validates with the zod schema
 * itself, refinements included); what is checked here is what the JSON Schema can say (types,
 * bounds, enums, patterns, required keys), so most mistakes are shown before anything is sent.
 */

/** The part of JSON Schema (draft 2020-12, as zod 4 writes it) the form reads. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

export type FieldPath = readonly string[];

interface FieldBase {
  /** Where in hearth.json (for a list entry's field: relative to the entry). */
  path: FieldPath;
  description?: string;
  /** The value that applies when the file leaves the field unset. */
  fallback?: unknown;
  required: boolean;
}

export interface NumberBounds {
  integer: boolean;
  min?: number;
  max?: number;
  /** min / max themselves not allowed (zod's `.positive()` is `exclusiveMinimum: 0`). */
  exclusiveMin?: boolean;
  exclusiveMax?: boolean;
}

export interface StringRules {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export type FormField =
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'enum'; options: string[] })
  | (FieldBase & { kind: 'number'; bounds: NumberBounds })
  | (FieldBase & { kind: 'string'; rules: StringRules })
  | (FieldBase & { kind: 'stringList'; item: StringRules; minItems?: number })
  | (FieldBase & { kind: 'objectList'; fields: FormField[] })
  | (FieldBase & { kind: 'section'; fields: FormField[] })
  /** A map of named entries (`mcp.servers`): each entry the file has, as its own section. */
  | (FieldBase & { kind: 'record'; entry: JsonSchema })
  /** A shape the form does not draw (a union, a free-form map): edited in the Advanced tab. */
  | (FieldBase & { kind: 'unsupported' });

export const pathText = (path: FieldPath) => path.join('.');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema of one path of the document, through nested objects' properties; undefined when it has none. */
export function schemaAt(root: JsonSchema, path: FieldPath): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const key of path) {
    node = node?.properties?.[key];
    if (!node) return undefined;
  }
  return node;
}

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? undefined : schema.type);

function stringRules(schema: JsonSchema): StringRules {
  return { minLength: schema.minLength, maxLength: schema.maxLength, pattern: schema.pattern };
}

// zod writes `.int()` as bounds of ±2^53−1; those say nothing a person needs to read.
const safeLimit = 9_007_199_254_740_991;
const bound = (value: number | undefined) => (value === undefined || Math.abs(value) >= safeLimit ? undefined : value);

function numberBounds(schema: JsonSchema): NumberBounds {
  const exclusiveMin = bound(schema.exclusiveMinimum);
  const exclusiveMax = bound(schema.exclusiveMaximum);
  return {
    integer: typeOf(schema) === 'integer',
    min: exclusiveMin ?? bound(schema.minimum),
    max: exclusiveMax ?? bound(schema.maximum),
    exclusiveMin: exclusiveMin !== undefined,
    exclusiveMax: exclusiveMax !== undefined,
  };
}

/** One schema node as a form field: `path` is where it sits, `required` whether its parent requires it. */
export function fieldFor(schema: JsonSchema, path: FieldPath, required = false): FormField {
  const base = { path, description: schema.description, fallback: schema.default, required };
  if (schema.enum?.every((option) => typeof option === 'string'))
    return { ...base, kind: 'enum', options: schema.enum as string[] };
  switch (typeOf(schema)) {
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'number':
    case 'integer':
      return { ...base, kind: 'number', bounds: numberBounds(schema) };
    case 'string':
      return { ...base, kind: 'string', rules: stringRules(schema) };
    case 'array': {
      const item = schema.items;
      if (item && typeOf(item) === 'string' && !item.enum)
        return { ...base, kind: 'stringList', item: stringRules(item), minItems: schema.minItems };
      if (item && typeOf(item) === 'object' && item.properties)
        return { ...base, kind: 'objectList', fields: fieldsOf(item, []) };
      return { ...base, kind: 'unsupported' };
    }
    case 'object':
      if (schema.properties) return { ...base, kind: 'section', fields: fieldsOf(schema, path) };
      if (isRecord(schema.additionalProperties) && schema.additionalProperties.properties)
        return { ...base, kind: 'record', entry: schema.additionalProperties };
      return { ...base, kind: 'unsupported' };
    default:
      return { ...base, kind: 'unsupported' };
  }
}

/** An object schema's properties as fields, in the schema's order. */
export function fieldsOf(schema: JsonSchema, path: FieldPath): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, inner]) =>
    fieldFor(inner, [...path, key], required.has(key)),
  );
}

/** The field for a path of the document's schema; undefined when the schema has no such path. */
export function fieldAt(root: JsonSchema, path: FieldPath): FormField | undefined {
  const schema = schemaAt(root, path);
  if (!schema) return undefined;
  const parent = schemaAt(root, path.slice(0, -1));
  return fieldFor(schema, path, parent?.required?.includes(path[path.length - 1] ?? '') ?? false);
}

/** The value at a path of a (parsed) document; undefined when any step is missing. */
export function valueAt(document: unknown, path: FieldPath): unknown {
  let cursor: unknown = document;
  for (const key of path) {
    if (!isRecord(cursor)) return undefined;
    cursor = cursor[key];
  }
  return cursor;
}

/** What a field shows: the file's value, else the default that applies. */
export function shownValue(document: unknown, field: FormField): unknown {
  const value = valueAt(document, field.path);
  return value === undefined ? field.fallback : value;
}

/** Why a value does not fit its field, in a form the view translates. */
export interface FieldProblem {
  /** Where, in the document (a list entry's field: `tools.exec.allowlist.1.pattern`). */
  path: string;
  code: 'required' | 'type' | 'integer' | 'min' | 'max' | 'minLength' | 'maxLength' | 'pattern' | 'enum' | 'minItems';
  /** The bound, length or pattern the value missed. */
  limit?: string;
}

const problem = (path: FieldPath, code: FieldProblem['code'], limit?: unknown): FieldProblem =>
  limit === undefined ? { path: pathText(path), code } : { path: pathText(path), code, limit: String(limit) };

function checkString(value: string, rules: StringRules, path: FieldPath): FieldProblem[] {
  if (rules.minLength !== undefined && value.length < rules.minLength)
    return [problem(path, 'minLength', rules.minLength)];
  if (rules.maxLength !== undefined && value.length > rules.maxLength)
    return [problem(path, 'maxLength', rules.maxLength)];
  if (rules.pattern !== undefined && !new RegExp(rules.pattern, 'u').test(value))
    return [problem(path, 'pattern', rules.pattern)];
  return [];
}

function checkNumber(value: number, bounds: NumberBounds, path: FieldPath): FieldProblem[] {
  if (!Number.isFinite(value)) return [problem(path, 'type')];
  if (bounds.integer && !Number.isInteger(value)) return [problem(path, 'integer')];
  if (bounds.min !== undefined && (bounds.exclusiveMin ? value <= bounds.min : value < bounds.min))
    return [problem(path, 'min', bounds.exclusiveMin ? `> ${bounds.min}` : bounds.min)];
  if (bounds.max !== undefined && (bounds.exclusiveMax ? value >= bounds.max : value > bounds.max))
    return [problem(path, 'max', bounds.exclusiveMax ? `< ${bounds.max}` : bounds.max)];
  return [];
}

/**
 * What is wrong with one field's value (undefined: unset, which is fine unless required). `at` is
 * where the value sits in the document, for a list entry's fields whose own path is relative.
 */
export function checkField(field: FormField, value: unknown, at: FieldPath = field.path): FieldProblem[] {
  if (value === undefined) return field.required ? [problem(at, 'required')] : [];
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? [] : [problem(at, 'type')];
    case 'enum':
      return typeof value === 'string' && field.options.includes(value) ? [] : [problem(at, 'enum')];
    case 'number':
      return typeof value === 'number' ? checkNumber(value, field.bounds, at) : [problem(at, 'type')];
    case 'string':
      return typeof value === 'string' ? checkString(value, field.rules, at) : [problem(at, 'type')];
    case 'stringList': {
      if (!Array.isArray(value)) return [problem(at, 'type')];
      if (field.minItems !== undefined && value.length < field.minItems)
        return [problem(at, 'minItems', field.minItems)];
      return value.flatMap((item, index) =>
        typeof item === 'string'
          ? checkString(item, field.item, [...at, String(index)])
          : [problem([...at, String(index)], 'type')],
      );
    }
    case 'objectList': {
      if (!Array.isArray(value)) return [problem(at, 'type')];
      return value.flatMap((entry, index) =>
        field.fields.flatMap((inner) =>
          checkField(inner, valueAt(entry, inner.path), [...at, String(index), ...inner.path]),
        ),
      );
    }
    case 'record':
      if (!isRecord(value)) return [problem(at, 'type')];
      return Object.entries(value).flatMap(([name, entry]) =>
        checkField(fieldFor(field.entry, [...field.path, name]), entry, [...at, name]),
      );
    case 'section':
      return field.fields.flatMap((inner) =>
        checkField(inner, valueAt(value, inner.path.slice(field.path.length)), [
          ...at,
          ...inner.path.slice(field.path.length),
        ]),
      );
    default:
      return [];
  }
}

/** A number field as typed: empty is unset (the default applies), anything else must read as a number. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/** A string list as typed in its box: one entry per line or comma, blanks dropped. */
export function parseList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** A list entry as edited: optional fields left empty are dropped, so the file keeps no `""`. */
export function cleanEntry(entry: Record<string, unknown>, fields: FormField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const key = pathText(field.path);
    const value = entry[key];
    if (value === undefined || (value === '' && !field.required)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * The edits as one JSON merge patch (RFC 7386, what config.patch takes): each changed path set,
 * an unset one as null (the file drops it and the default applies). Lists are replaced whole.
 */
export function mergePatch(edits: ReadonlyMap<string, { path: FieldPath; value: unknown }>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const { path, value } of edits.values()) {
    let cursor = patch;
    for (const key of path.slice(0, -1)) {
      if (!isRecord(cursor[key])) cursor[key] = {};
      cursor = cursor[key] as Record<string, unknown>;
    }
    cursor[path[path.length - 1]!] = value === undefined ? null : value;
  }
  return patch;
}
