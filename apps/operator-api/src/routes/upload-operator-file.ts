// POST /api/v2/operator/files: the desk's file for a waiver answer, streamed into the file store as the partner API's
// upload is (upload-file.ts): Content-Length required, a body the headers already refuse left unread.
import { uploadOperatorFileOperation } from '@backbone/contracts';
import { DomainError } from '@backbone/domain';
import { closeUnreadGently, HttpProblem, mountOperation, uploadedFileNameOf, type OperationRoutes } from '@backbone/http';
import { uploadOperatorFile } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountUploadOperatorFile(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, uploadOperatorFileOperation, async ({ auth, req, res }) => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] !== undefined || length === undefined) {
      closeUnreadGently(req, res);
      throw new HttpProblem('length-required', 'Send the file with its Content-Length (chunked uploads are not accepted).');
    }
    const upload = {
      contentType: req.headers['content-type'],
      length: Number(length),
      fileName: uploadedFileNameOf(req.headers['content-disposition']),
      body: req,
      clientConnected: () => !req.socket.destroyed,
    };
    const caller = { accountId: auth.accountId, userId: auth.user?.id ?? null, apiKeyId: auth.keyId };
    const file = await uploadOperatorFile(deps, caller, upload).catch((error: unknown) => {
      // Refused before the body was read (too large, the wrong type, no room): the rest is not wanted.
      if (error instanceof DomainError && error.code !== 'invalid-request') closeUnreadGently(req, res);
      throw error;
    });
    return { status: 201, body: file, headers: { 'Cache-Control': 'no-store' } };
  });
}
