// POST /api/v2/ota/partner/files: the raw body streamed into the file store by the upload-file use case, never held
// whole. Content-Length is required (411 without, chunked included); a body the headers already refuse as too large
// is not read: the answer closes the connection instead (gently, so a proxy streaming the body still gets it).
import { uploadFileOperation } from '@backbone/contracts';
import { DomainError } from '@backbone/domain';
import { closeUnreadGently, HttpProblem, mountOperation, uploadedFileNameOf, type OperationRoutes } from '@backbone/http';
import { uploadFile } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';

export function mountUploadFile(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, uploadFileOperation, async ({ auth, req, res }) => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] !== undefined || length === undefined) {
      closeUnreadGently(req, res);
      throw new HttpProblem('length-required', 'Send the file with its Content-Length (chunked uploads are not accepted).');
    }
    if (!auth.partnerId) throw new HttpProblem('forbidden', 'This key belongs to no partner; files are uploaded by partners.');
    const upload = {
      accountId: auth.accountId,
      uploader: { partnerId: auth.partnerId },
      apiKeyId: auth.keyId,
      contentType: req.headers['content-type'],
      length: Number(length),
      fileName: uploadedFileNameOf(req.headers['content-disposition']),
      body: req,
      clientConnected: () => !req.socket.destroyed,
    };
    const file = await uploadFile(deps, upload).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'payload-too-large') closeUnreadGently(req, res);
      throw error;
    });
    return { status: 201, body: file, headers: { 'Cache-Control': 'no-store' } };
  });
}
