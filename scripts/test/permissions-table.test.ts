// docs/permissions.md is the permission table as the contracts declare it: a changed role, or an operator operation
// added or removed, fails here until `npm run docs:permissions` writes the document again.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPERATOR_OPERATIONS, OPERATOR_PERMISSIONS } from '@backbone/contracts';
import { PERMISSIONS_DOC, permissionsMarkdown } from '../docs/permissions-table.js';

describe('docs/permissions.md', () => {
  it('is what npm run docs:permissions writes from the permission table', async () => {
    const committed = await readFile(PERMISSIONS_DOC, 'utf8');
    expect(committed, 'docs/permissions.md is stale: run npm run docs:permissions').toBe(permissionsMarkdown());
  });

  it('has a row for every operator operation, with its roles', () => {
    const markdown = permissionsMarkdown();
    for (const op of OPERATOR_OPERATIONS) {
      const row = markdown.split('\n').find((line) => line.startsWith(`| \`${op.operationId}\` |`));
      expect(row, op.operationId).toBeDefined();
      if (op.auth === 'session-or-key') expect(row!.endsWith(`| ${OPERATOR_PERMISSIONS[op.operationId].join(', ')} |`), row).toBe(true);
    }
  });
});
