// Content-Disposition both ways, with the `content-disposition` package (RFC 6266 and RFC 8187's filename*): the file
// name an upload declares, and the header a download goes out with.
import { create, parse } from 'content-disposition';
import { HttpProblem } from './problems.js';

/** The file name of an upload's `Content-Disposition: attachment; filename=…` (filename* preferred); undefined without one. */
export function uploadedFileNameOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(header);
  } catch {
    throw new HttpProblem('invalid-request', 'Content-Disposition cannot be read: send `attachment; filename="name.pdf"`.');
  }
  if (parsed.type !== 'attachment' && parsed.type !== 'inline') {
    throw new HttpProblem('invalid-request', `Content-Disposition must be attachment (with a filename), not ${parsed.type}.`);
  }
  return parsed.parameters.filename;
}

/** `attachment; filename="…"; filename*=UTF-8''…`: saved under its name, never shown in the browser's page. */
export function attachmentHeader(fileName: string): string {
  return create(fileName, { type: 'attachment' });
}
