// A waiver answer as the console shows it (the booking panel, the manifest): a file as its name with a download, an
// http(s) URL as a link, a list joined, anything else as text. React escapes the text; a link is made only for the
// http and https schemes (never javascript:, data: or a relative path), opens apart from the console and tells the
// other site nothing about it (rel="noopener noreferrer").
import { downloadOperatorFileOperation, type BookingDetail } from '@backbone/contracts/browser';
import { operationUrl } from '../api/client.js';

type Answer = BookingDetail['Answers'][number];

export const FILE_KINDS: Record<string, string> = { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file uploaded for an answer (by a partner, a customer or the desk): its name, type and size, and a download (served as an attachment). */
function FileAnswer({ file }: { file: NonNullable<Answer['File']> }) {
  return (
    <span className="file-answer">
      <a href={operationUrl(downloadOperatorFileOperation, { params: { FileID: file.FileID } })} download={file.Name}>
        {file.Name}
      </a>{' '}
      <span className="file-meta">
        ({FILE_KINDS[file.ContentType] ?? file.ContentType}, {fileSize(file.Size)})
      </span>
    </span>
  );
}

/** The answer's text when it is one absolute http(s) URL and nothing else; null otherwise. */
export function webAddress(text: string): string | null {
  const trimmed = text.trim();
  if (!/^https?:\/\/\S+$/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function AnswerValue({ answer }: { answer: Pick<Answer, 'Value' | 'File'> }) {
  if (answer.File) return <FileAnswer file={answer.File} />;
  const value = answer.Value;
  if (Array.isArray(value)) return <>{value.join(', ')}</>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  const text = String(value ?? '');
  const href = webAddress(text);
  return href ? (
    <a className="answer-link" href={href} target="_blank" rel="noopener noreferrer">
      {text.trim()}
    </a>
  ) : (
    <>{text}</>
  );
}
