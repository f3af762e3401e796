// Files for the upload tests: the first bytes of each accepted format (what a type detection reads), padded with
// random bytes to any size, and a Windows executable's header for the refused case.
import { randomBytes } from 'node:crypto';

export type SampleKind = 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp' | 'exe' | 'text';

function head(kind: SampleKind, size: number): Buffer {
  switch (kind) {
    case 'application/pdf':
      return Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
    case 'image/jpeg':
      return Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
    case 'image/png': {
      // The signature, an IHDR chunk of a 1x1 RGBA image, then an IDAT chunk holding the rest (its CRC unchecked).
      const start = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
      const idat = Buffer.alloc(8);
      idat.writeUInt32BE(Math.max(size - start.length - 12, 0), 0);
      idat.write('IDAT', 4, 'latin1');
      return Buffer.concat([start, idat]);
    }
    case 'image/webp': {
      const riff = Buffer.alloc(20);
      riff.write('RIFF', 0, 'latin1');
      riff.writeUInt32LE(Math.max(size - 8, 12), 4);
      riff.write('WEBPVP8 ', 8, 'latin1');
      return riff;
    }
    case 'exe': {
      // MZ, and at 0x3c the offset of the PE header, where "PE\0\0" stands.
      const exe = Buffer.alloc(0x84);
      exe.write('MZ', 0, 'latin1');
      exe.writeUInt32LE(0x80, 0x3c);
      exe.write('PE\0\0', 0x80, 'latin1');
      return exe;
    }
    case 'text':
      return Buffer.from('This is a plain text file, not a waiver.\n');
  }
}

/** `size` bytes that start as a file of `kind` (random after its header; zeros for text, which must stay text). */
export function sampleFile(kind: SampleKind, size: number): Buffer {
  const start = head(kind, size);
  if (size < start.length) throw new Error(`a ${kind} sample needs at least ${start.length} bytes`);
  const rest = kind === 'text' ? Buffer.alloc(size - start.length, 0x61) : randomBytes(size - start.length);
  return Buffer.concat([start, rest]);
}
