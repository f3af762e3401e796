// The file store in a directory (FILE_STORE=<path>; npm start's default .data/files). A file is written to a
// temporary name under <root>/.partial, flushed (fsync), renamed into <root>/<account>/<file>, and the directory
// flushed too: a crash at any point leaves either the whole file under its name or nothing there, and at most a
// temporary file that removeLeftovers deletes later.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertFileKey, type FileStore } from './file-store.js';

const PARTIAL = '.partial';

export function createDirectoryFileStore(directory: string): FileStore {
  const root = path.resolve(directory);
  const partialDir = path.join(root, PARTIAL);
  const finalPath = (key: string) => {
    assertFileKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    description: `directory ${root}`,
    async put(key, body) {
      const target = finalPath(key);
      await ensureDirectory(partialDir);
      await ensureDirectory(path.dirname(target));
      const temporary = path.join(partialDir, `${randomUUID()}.part`);
      const handle = await open(temporary, 'wx', 0o600);
      try {
        // One write at a time: the body is read only as fast as the disk takes it, and the handle stays ours to fsync.
        for await (const chunk of body) await handle.write(chunk as Buffer);
        await handle.sync();
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(temporary, { force: true });
        throw error;
      }
      await handle.close();
      try {
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      await syncDirectory(path.dirname(target));
    },
    async get(key) {
      try {
        const handle = await open(finalPath(key), 'r');
        return handle.createReadStream();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(finalPath(key), { force: true });
    },
    async removeLeftovers(olderThanMs) {
      let names: string[];
      try {
        names = await readdir(partialDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
      let removed = 0;
      for (const name of names) {
        const file = path.join(partialDir, name);
        const info = await stat(file).catch(() => null);
        // An upload still being written is younger than any request may take.
        if (info && Date.now() - info.mtimeMs > olderThanMs) {
          await rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}

/** Creates a directory if needed; a directory created now is flushed into its parent, so the rename after it lasts. */
async function ensureDirectory(directory: string): Promise<void> {
  const created = await mkdir(directory, { recursive: true });
  if (created === undefined) return;
  // mkdir answers the first directory it created: every one from there down is new in its parent.
  let dir = directory;
  while (dir.length >= created.length) {
    await syncDirectory(path.dirname(dir));
    dir = path.dirname(dir);
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
