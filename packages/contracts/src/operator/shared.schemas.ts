// Pieces the operator (console) operations share: their tag and the keyset-paging members.
export const operatorTags = ['Operator'] as const;

export const limitSchema = { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Rows per page (1-200, default 50).' } as const;
export const cursorSchema = {
  type: 'string',
  maxLength: 200,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'The `Next` of the previous page; leave out for the first page.',
} as const;
export const nextSchema = { type: ['string', 'null'], description: 'Cursor of the next page; null on the last page.' } as const;
