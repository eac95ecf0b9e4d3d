/**
 * valibot schemas as JSON Schema, for the OpenAPI document and the MCP tool listings: both describe
 * the schemas the handlers validate with, so neither can drift from the code.
 * @module
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';

/**
 * JSON Schema of a valibot schema without the draft-07 `$schema` marker (OpenAPI 3.1 and MCP
 * default to 2020-12, and the subset produced is valid there). Actions JSON Schema cannot express
 * (trim, transforms) are left out rather than failing.
 */
export function jsonSchemaOf(schema: GenericSchema, typeMode: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { errorMode: 'ignore', typeMode }) as Record<string, unknown>;
  return rest;
}
