// GET /api/v2/operator/files/:FileID: an upload of this account (a partner's, a customer's, the desk's) streamed from the
// file store as an attachment that no browser renders in the console's origin (nosniff, a sandboxing CSP).
import { pipeline } from 'node:stream/promises';
import { downloadOperatorFileOperation } from '@backbone/contracts';
import { attachmentHeader, mountOperation, type OperationRoutes } from '@backbone/http';
import { downloadOperatorFile } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountDownloadOperatorFile(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, downloadOperatorFileOperation, async ({ params, auth, res }) => {
    const { file, body } = await downloadOperatorFile(deps, auth.accountId, params.FileID);
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Content-Disposition': attachmentHeader(file.name),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Cache-Control': 'private, no-store',
    });
    await pipeline(body, res);
    return { status: 200, body: undefined };
  });
}
