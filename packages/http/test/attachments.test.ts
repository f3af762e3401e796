// Content-Disposition both ways: the file name an upload declares (filename* preferred, a 400 when it is not an
// attachment), and the header a download goes out with.
import { describe, expect, it } from 'vitest';
import { attachmentHeader, uploadedFileNameOf } from '../src/attachments.js';
import { HttpProblem } from '../src/problems.js';

function problemFrom(run: () => unknown): HttpProblem {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpProblem);
    return error as HttpProblem;
  }
  throw new Error('expected an HttpProblem, nothing was thrown');
}

describe('uploadedFileNameOf', () => {
  it('has no name without the header, or with an attachment that gives none', () => {
    expect(uploadedFileNameOf(undefined)).toBeUndefined();
    expect(uploadedFileNameOf('attachment')).toBeUndefined();
  });

  it('reads filename, and prefers the UTF-8 filename* when both are sent', () => {
    expect(uploadedFileNameOf('attachment; filename="waiver.pdf"')).toBe('waiver.pdf');
    expect(uploadedFileNameOf('inline; filename=waiver.pdf')).toBe('waiver.pdf');
    expect(uploadedFileNameOf(`attachment; filename="fallback.pdf"; filename*=UTF-8''d%C3%A9claration.pdf`)).toBe('déclaration.pdf');
  });

  it('refuses a disposition that is not an attachment, as the client’s mistake', () => {
    const formData = problemFrom(() => uploadedFileNameOf('form-data; name="file"; filename="a.pdf"'));
    expect(formData.code).toBe('invalid-request');
    expect(formData.message).toBe('Content-Disposition must be attachment (with a filename), not form-data.');
  });
});

describe('attachmentHeader', () => {
  it('names an ASCII file plainly (quoted when it must be), and gives any other name a fallback and its UTF-8 form', () => {
    expect(attachmentHeader('waiver.pdf')).toBe('attachment; filename=waiver.pdf');
    expect(attachmentHeader('signed waiver.pdf')).toBe('attachment; filename="signed waiver.pdf"');
    expect(attachmentHeader('déclaration.pdf')).toBe(`attachment; filename="d?claration.pdf"; filename*=UTF-8''d%C3%A9claration.pdf`);
  });

  it('round-trips through uploadedFileNameOf', () => {
    for (const name of ['waiver.pdf', 'déclaration signée.pdf', 'quote"d.pdf', '合同.pdf']) expect(uploadedFileNameOf(attachmentHeader(name))).toBe(name);
  });
});
