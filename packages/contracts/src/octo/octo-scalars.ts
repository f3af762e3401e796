// Shorthands for the scalar members of OCTO's shapes, shared by the octo-*.schemas.ts files (not exported from the
// package).
export const str = { type: 'string' } as const;
export const strOrNull = { type: ['string', 'null'] } as const;
export const int = { type: 'integer' } as const;
export const intOrNull = { type: ['integer', 'null'] } as const;
