// POST /api/v2/shop/:Slug/holds/:Token/files: a file answer for a live hold, streamed into the file store as the
// partner API's upload is (upload-file.ts): Content-Length required, a body already too large left unread.
import { uploadShopFileOperation } from '@backbone/contracts';
import { DomainError } from '@backbone/domain';
import { closeUnreadGently, HttpProblem, mountOperation, uploadedFileNameOf, type OperationRoutes } from '@backbone/http';
import { uploadShopFile } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountUploadShopFile(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, uploadShopFileOperation, async ({ params, req, res }) => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] !== undefined || length === undefined) {
      closeUnreadGently(req, res);
      throw new HttpProblem('length-required', 'Send the file with its Content-Length (chunked uploads are not accepted).');
    }
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'upload').catch((error: unknown) => {
      closeUnreadGently(req, res);
      throw error;
    });
    const upload = {
      contentType: req.headers['content-type'],
      length: Number(length),
      fileName: uploadedFileNameOf(req.headers['content-disposition']),
      body: req,
      clientConnected: () => !req.socket.destroyed,
    };
    const file = await uploadShopFile(deps, caller, params.Token, upload).catch((error: unknown) => {
      // Refused before the body was read (no such hold, too large, not a hold any more): the rest is not wanted.
      if (error instanceof DomainError && error.code !== 'invalid-request') closeUnreadGently(req, res);
      throw error;
    });
    return { status: 201, body: file, headers: PRIVATE };
  });
}
