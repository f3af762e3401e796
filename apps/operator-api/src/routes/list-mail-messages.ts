// GET /api/v2/operator/mail/messages (owners): one keyset page of the account's e-mails, newest first.
import { listMailMessagesOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listMailMessages } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { decodeCursor, encodeCursor } from '../cursor.js';

export function mountListMailMessages(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listMailMessagesOperation, async ({ query, auth }) => {
    const limit = query.Limit ?? 50;
    // One more than a page tells whether another page follows.
    const messages = await listMailMessages(deps, auth.accountId, { limit: limit + 1, before: decodeCursor(query.Cursor) });
    const page = messages.slice(0, limit);
    const next = messages.length > limit ? encodeCursor(page[page.length - 1]!.MessageID) : null;
    return { status: 200, body: { Messages: page, Next: next }, headers: { 'Cache-Control': 'no-store' } };
  });
}
