// The file sweeper: deletes uploaded files that no booking referenced within their 24 hours, and uploads a crash cut
// off, through the sweep-unreferenced-files use case (bytes first, then rows, giving their bytes back to the quota).
// A referenced file is never taken. Several sweepers may run side by side: each claims files the others do not hold
// (SKIP LOCKED).
import type { Logger } from 'pino';
import type { Pool } from '@backbone/db';
import type { FileStore } from '@backbone/file-store';
import { sweepUnreferencedFiles } from '@backbone/use-cases';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';

export type FileSweeper = PassLoop;

export function startFileSweeper(options: { pool: Pool; fileStore: FileStore; intervalMs: number; batchSize: number; logger: Logger }): FileSweeper {
  return startPassLoop(options.intervalMs, async () => {
    try {
      const { deleted, leftovers } = await sweepUnreferencedFiles(options, options.batchSize);
      if (deleted > 0 || leftovers > 0) options.logger.info({ deleted, leftovers }, 'unreferenced files deleted');
      // A full batch means more may be due: go on at once.
      return deleted < options.batchSize ? 'pause' : 'again';
    } catch (err) {
      options.logger.warn({ err }, 'file sweep failed');
      return 'pause';
    }
  });
}
