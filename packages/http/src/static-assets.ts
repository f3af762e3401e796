// The built browser apps' scripts and styles (the console, the booking page), gzipped on their first request and
// kept: neither nginx nor the dev gateway compresses. Not at start: an app built again while the server runs (a
// deploy, or a build beside the tests) has new files that must be found too.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import express, { type Express } from 'express';
import { sendProblem } from './problems.js';

const gzip = promisify(gzipCallback);

export function isMissingFile(error: Error & { code?: string }): boolean {
  return error.code === 'ENOENT' || error.code === 'ENOTDIR';
}

export interface GzippedAsset {
  type: string;
  body: Buffer;
}

const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
// A built asset's own name (Vite's hashed names), never a path: nothing outside the assets folder is read.
const ASSET_NAME = /^[\w-]+(?:\.[\w-]+)*\.(?:js|css)$/;

/** The gzipped body of an asset of `dir` by name, or null for no such script or style. Names are content hashes. */
export function gzippedAssets(dir: string): (file: string) => Promise<GzippedAsset | null> {
  const cache = new Map<string, Promise<GzippedAsset | null>>();
  const load = async (file: string): Promise<GzippedAsset | null> => {
    try {
      const body = await gzip(await readFile(path.join(dir, file)), { level: 9 });
      return { type: ASSET_TYPES[path.extname(file)]!, body };
    } catch {
      return null;
    }
  };
  return async (file) => {
    if (!ASSET_NAME.test(file)) return null;
    let asset = cache.get(file);
    if (!asset) {
      asset = load(file);
      cache.set(file, asset);
    }
    const loaded = await asset;
    // A file missing now may be written later (a build in progress): ask the disk again next time.
    if (!loaded) cache.delete(file);
    return loaded;
  };
}

/**
 * Serves an app's hashed assets under `urlPath` (e.g. /console/assets): gzipped to a client that takes it, else as
 * they are, cached for a year (their names change with their content); anything else there is a 404 problem.
 */
export function serveHashedAssets(app: Express, urlPath: string, dir: string, notFoundDetail: string): void {
  const gzipped = gzippedAssets(dir);
  app.get(`${urlPath}/:file`, async (req, res, next) => {
    if (req.acceptsEncodings('gzip', 'identity') !== 'gzip') return next();
    const asset = await gzipped(req.params.file);
    if (!asset) return next();
    res.vary('Accept-Encoding');
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(asset.type).send(asset.body);
  });
  // Anything serve-static cannot send (no such file, a folder, a name it refuses) falls through to the 404 below.
  app.use(urlPath, express.static(dir, { immutable: true, maxAge: '365d', index: false, redirect: false }));
  app.use(urlPath, (req, res) => sendProblem(req, res, 'not-found', notFoundDetail));
}
