// The TypeScript shapes of an operation's inputs and answer, derived from its schemas, for typed clients (the console).
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Operation } from './operation.js';

// FromSchema of the wide JSONSchema type never ends (TS2589): only a concrete schema becomes a type.
type SchemaType<S> = S extends JSONSchema ? (JSONSchema extends S ? unknown : FromSchema<S>) : undefined;

export type ParamsOf<Op extends Operation> = SchemaType<Op['params']>;
/** What a caller sends: members with a default may be left out. */
export type QueryOf<Op extends Operation> = Op['query'] extends JSONSchema ? Partial<SchemaType<Op['query']>> : undefined;
export type BodyOf<Op extends Operation> = SchemaType<Op['body']>;
/** The 200 or 201 answer's body; undefined for operations that answer 204. */
export type ResultOf<Op extends Operation> = Op['responses'] extends { readonly 200: { readonly schema: infer S } }
  ? SchemaType<S>
  : Op['responses'] extends { readonly 201: { readonly schema: infer S } }
    ? SchemaType<S>
    : undefined;
